// name: artifact_integrity
// mode: read
// params:
// Reliability tests: every artifact with what makes it whole (text, vector, entity links).
MATCH (a:Artifact)
OPTIONAL MATCH (a)-[:REFERENCES]->(e:Entity)
RETURN a.id AS id, a.text AS text, a.embedding IS NOT NULL AS has_embedding, collect(e.key) AS entities
