// name: m010_drop_entity_fulltext
// mode: write
// params:
// Drops the full-text index over entity names (m007): no query reads it (the router matches
// entity names in memory, the graph channel starts from the vector channel's memories), and
// every write paid for keeping it.
CALL db.idx.fulltext.drop('Entity')
