// name: count_entity_types
// mode: read
// params:
// Number of entities per type.
MATCH (e:Entity)
RETURN e.type AS type, count(e) AS n
