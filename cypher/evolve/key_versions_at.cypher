// name: key_versions_at
// mode: read
// params: pairs
// For each {key, valid_at}: the version of that key valid at that time (the latest one that
// started at or before it), i.e. the fact a restatement found already stored.
UNWIND $pairs AS q
CALL {
  WITH q
  MATCH (a:Artifact {key: q.key})
  WHERE a.status IN ['active', 'superseded'] AND a.valid_at <= q.valid_at
  RETURN a ORDER BY a.valid_at DESC, a.created_at DESC, coalesce(a.seq, 0) DESC LIMIT 1
}
RETURN q.key AS key, a.id AS id
