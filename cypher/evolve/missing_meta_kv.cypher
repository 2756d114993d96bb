// name: missing_meta_kv
// mode: read
// params: limit
// Memories written before metadata filters existed: metadata stored, no meta_kv list (the pairs
// metadata filters match). One page, for the backfill that maintain() runs.
MATCH (a:Artifact)
WHERE a.meta_kv IS NULL AND a.metadata IS NOT NULL AND a.metadata <> '{}'
RETURN a.id AS id, a.metadata AS metadata
LIMIT $limit
