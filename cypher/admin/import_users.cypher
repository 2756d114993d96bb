// name: import_users
// mode: write
// params: rows
// Import: one batch of User nodes with every exported property, in one atomic query.
UNWIND $rows AS r
CREATE (n:User {id: r.id})
SET n += r.props
RETURN count(n) AS created
