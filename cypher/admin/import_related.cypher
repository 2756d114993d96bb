// name: import_related
// mode: write
// params: rows
// Import: one batch of RELATED_TO edges (entity key -> entity key) with every property.
UNWIND $rows AS r
MATCH (s:Entity {key: r.src})
MATCH (o:Entity {key: r.dst})
CREATE (s)-[rel:RELATED_TO]->(o)
SET rel += r.props
RETURN count(rel) AS created
