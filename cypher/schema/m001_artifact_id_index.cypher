// name: m001_artifact_id_index
// mode: write
// params:
// Range index on Artifact.id (lookups by id, and the support of its unique constraint).
CREATE INDEX FOR (a:Artifact) ON (a.id)
