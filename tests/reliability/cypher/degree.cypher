// name: degree
// mode: read
// params: key
// Reliability tests: the RELATED_TO degree of one entity.
MATCH (e:Entity {key: $key})-[r:RELATED_TO]-()
RETURN count(r) AS n
