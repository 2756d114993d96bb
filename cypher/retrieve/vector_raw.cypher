// name: vector_raw
// mode: read
// params: vector, k
// The bare index call (ids and distances only): the floor the vector route is measured against.
CALL db.idx.vector.queryNodes('Artifact', 'embedding', $k, vecf32($vector)) YIELD node, score
RETURN node.id AS id, score AS distance
