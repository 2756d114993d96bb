// name: m007_entity_fulltext
// mode: write
// params:
// Full-text index over entity names (fuzzy and partial entity lookup).
CALL db.idx.fulltext.createNodeIndex('Entity', 'name')
