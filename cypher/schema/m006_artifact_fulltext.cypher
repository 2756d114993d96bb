// name: m006_artifact_fulltext
// mode: write
// params:
// Full-text index over each memory's text and its attribution (who said it, whom it is about).
CALL db.idx.fulltext.createNodeIndex('Artifact', 'text', 'attribution')
