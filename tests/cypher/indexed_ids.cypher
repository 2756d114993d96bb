// name: indexed_ids
// mode: read
// params: vector, k
// Test support: the ids the vector index returns for a query (checks no vector was left out).
CALL db.idx.vector.queryNodes('Artifact', 'embedding', $k, vecf32($vector)) YIELD node
RETURN node.id AS id
