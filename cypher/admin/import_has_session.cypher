// name: import_has_session
// mode: write
// params: rows
// Import: one batch of HAS_SESSION edges (user id -> session id) with every property.
UNWIND $rows AS r
MATCH (u:User {id: r.src})
MATCH (s:Session {id: r.dst})
CREATE (u)-[rel:HAS_SESSION]->(s)
SET rel += r.props
RETURN count(rel) AS created
