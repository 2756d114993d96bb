// name: edges_by_id
// mode: read
// params:
// Test support: every edge with its internal id, type, endpoints' ids and properties, in creation order.
MATCH (a)-[r]->(b)
RETURN id(r) AS id, type(r) AS type, id(a) AS src, id(b) AS dst, properties(r) AS props ORDER BY id(r)
