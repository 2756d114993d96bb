// name: init_meta
// mode: write
// params: dimension, embedder, now
// Creates the tenant's metadata node on first write (this creates the graph key).
MERGE (m:_Meta {id: 'meta'})
ON CREATE SET m.schema_version = 0, m.dimension = $dimension, m.embedder = $embedder, m.created_at = $now
RETURN m.schema_version AS schema_version, m.dimension AS dimension, m.embedder AS embedder
