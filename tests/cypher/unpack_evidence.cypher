// name: unpack_evidence
// mode: write
// params: sep
// Test support: every RELATED_TO edge's evidence back as the list tenants before schema 16 kept
// (`artifact_ids`), the strings removed.
MATCH ()-[r:RELATED_TO]->()
SET r.artifact_ids = split(CASE WHEN r.evidence_old IS NULL THEN r.evidence ELSE r.evidence_old + $sep + r.evidence END, $sep),
    r.evidence = null, r.evidence_old = null
RETURN count(r) AS unpacked
