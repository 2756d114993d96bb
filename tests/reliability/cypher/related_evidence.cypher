// name: related_evidence
// mode: read
// params: sep
// Reliability tests: which artifact ids each RELATED_TO edge cites as its evidence (both strings).
MATCH (s:Entity)-[r:RELATED_TO]->(o:Entity)
RETURN s.key AS subject, r.relation AS relation, o.key AS object,
       split(CASE WHEN r.evidence_old IS NULL THEN r.evidence ELSE r.evidence_old + $sep + r.evidence END, $sep) AS ids
