// name: import_supersedes
// mode: write
// params: rows
// Import: one batch of SUPERSEDES edges (artifact id -> artifact id) with every property.
UNWIND $rows AS r
MATCH (a:Artifact {id: r.src})
MATCH (b:Artifact {id: r.dst})
CREATE (a)-[rel:SUPERSEDES]->(b)
SET rel += r.props
RETURN count(rel) AS created
