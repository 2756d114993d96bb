// name: import_entities
// mode: write
// params: rows
// Import: one batch of entities with every exported property, in one atomic query.
UNWIND $rows AS r
CREATE (e:Entity {key: r.key})
SET e += r.props
RETURN count(e) AS created
