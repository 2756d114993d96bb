// name: supersede
// mode: write
// params: new_id, old_id, reason, now
// Marks an active memory superseded by a newer one (from the classifier): it stays, invalid
// from the newer one's valid_at, linked (new)-[:SUPERSEDES]->(old). No-op unless old is active.
MATCH (n:Artifact {id: $new_id})
MATCH (o:Artifact {id: $old_id})
WHERE o.status = 'active' AND n.status IN ['active', 'superseded'] AND n <> o
SET o.status = 'superseded', o.invalid_at = n.valid_at
MERGE (n)-[s:SUPERSEDES]->(o)
ON CREATE SET s.created_at = $now, s.reason = $reason
RETURN o.id AS id
