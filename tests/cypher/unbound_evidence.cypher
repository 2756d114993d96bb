// name: unbound_evidence
// mode: write
// params: ids
// Test support: RELATED_TO evidence as a tenant written before schema 15 holds it: each edge
// lists every memory that stated it ($ids, oldest first), no statement count, and the memories
// keep no list of the edges they stated.
MATCH ()-[r:RELATED_TO]->()
SET r.artifact_ids = $ids
REMOVE r.n_stated
WITH count(r) AS edges
MATCH (a:Artifact)
REMOVE a.stated
RETURN edges, count(a) AS memories
