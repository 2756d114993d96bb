// name: import_agents
// mode: write
// params: rows
// Import: one batch of Agent nodes with every exported property, in one atomic query.
UNWIND $rows AS r
CREATE (n:Agent {id: r.id})
SET n += r.props
RETURN count(n) AS created
