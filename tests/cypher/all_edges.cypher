// name: all_edges
// mode: read
// params:
// Test support: every edge with its type, its properties and its endpoints' properties.
MATCH (a)-[r]->(b)
RETURN type(r) AS type, properties(r) AS props, properties(a) AS src, properties(b) AS dst
