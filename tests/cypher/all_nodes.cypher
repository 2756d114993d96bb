// name: all_nodes
// mode: read
// params:
// Test support: every node with its labels and properties.
MATCH (n)
RETURN labels(n) AS labels, properties(n) AS props
