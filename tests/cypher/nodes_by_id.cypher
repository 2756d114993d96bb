// name: nodes_by_id
// mode: read
// params:
// Test support: every node with its internal id, labels and properties, in creation order.
MATCH (n)
RETURN id(n) AS id, labels(n) AS labels, properties(n) AS props ORDER BY id(n)
