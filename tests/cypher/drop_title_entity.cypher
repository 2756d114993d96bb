// name: drop_title_entity
// mode: write
// params: key
// Test support: remove the entity $key and its links, as a tenant written before schema 15 looks
// when no text named the whole title.
MATCH (e:Entity {key: $key})
DETACH DELETE e
RETURN 1 AS done
