// name: read_meta
// mode: read
// params:
// The tenant's schema version, embedding dimension and embedder name.
MATCH (m:_Meta {id: 'meta'})
RETURN m.schema_version AS schema_version, m.dimension AS dimension, m.embedder AS embedder
