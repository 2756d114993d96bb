// name: import_sessions
// mode: write
// params: rows
// Import: one batch of Session nodes with every exported property, in one atomic query.
UNWIND $rows AS r
CREATE (n:Session {id: r.id})
SET n += r.props
RETURN count(n) AS created
