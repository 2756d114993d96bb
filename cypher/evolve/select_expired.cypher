// name: select_expired
// mode: read
// params: kind, cutoff, limit
// Ids of the memories of one kind stored before $cutoff (epoch seconds): the retention policy.
MATCH (a:Artifact {kind: $kind})
WHERE a.created_at < $cutoff
RETURN a.id AS id
LIMIT $limit
