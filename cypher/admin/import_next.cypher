// name: import_next
// mode: write
// params: rows
// Import: one batch of NEXT edges (turn order: artifact id -> artifact id).
UNWIND $rows AS r
MATCH (a:Artifact {id: r.src})
MATCH (b:Artifact {id: r.dst})
CREATE (a)-[rel:NEXT]->(b)
SET rel += r.props
RETURN count(rel) AS created
