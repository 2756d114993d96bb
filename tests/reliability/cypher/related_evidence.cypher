// name: related_evidence
// mode: read
// params:
// Reliability tests: which artifact ids each RELATED_TO edge cites as its evidence (both lists).
MATCH (s:Entity)-[r:RELATED_TO]->(o:Entity)
RETURN s.key AS subject, r.relation AS relation, o.key AS object, coalesce(r.old_ids, []) + r.artifact_ids AS ids
