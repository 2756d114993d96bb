// name: tenant_summary
// mode: read
// params:
// One line per tenant for `tenants list/show`: its metadata, artifact count and last write.
MATCH (m:_Meta {id: 'meta'})
OPTIONAL MATCH (a:Artifact)
RETURN m.schema_version AS schema_version, m.dimension AS dimension, m.embedder AS embedder,
       m.created_at AS created_at, count(a) AS artifacts, max(a.created_at) AS last_write
