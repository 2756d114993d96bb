// name: merge_entity_key
// mode: write
// params: key
// Tests: MERGE one entity by key, bypassing falkmem's caps (a key over the engine's limit
// crashes the server: the lifecycle tests use it as a query that kills the server).
MERGE (e:Entity {key: $key}) RETURN e.key AS key
