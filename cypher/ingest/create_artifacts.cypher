// name: create_artifacts
// mode: write
// params: rows, now
// Creates a batch of artifacts in one atomic query: the node with its embedding, its session,
// user and agent links, the entities it references (MERGEd by key) and the RELATED_TO evidence
// between them (subject -> object). The unique constraint on Artifact.id refuses a duplicate id,
// so a retried batch can never be applied twice.
UNWIND $rows AS r
CREATE (a:Artifact {id: r.id, text: r.text, kind: r.kind, embedding: vecf32(r.embedding),
                    created_at: $now, valid_at: r.valid_at, status: 'active', metadata: r.metadata,
                    attribution: r.attribution, n_tokens: r.n_tokens})
SET a.session_id = r.session, a.speaker = r.speaker, a.agent_id = r.agent, a.user_id = r.user,
    a.key = r.key, a.source = r.source
FOREACH (sid IN CASE WHEN r.session IS NULL THEN [] ELSE [r.session] END |
  MERGE (s:Session {id: sid})
  CREATE (s)-[:CONTAINS]->(a))
FOREACH (uid IN CASE WHEN r.user IS NULL OR r.session IS NULL THEN [] ELSE [r.user] END |
  MERGE (u:User {id: uid})
  MERGE (s:Session {id: r.session})
  MERGE (u)-[:HAS_SESSION]->(s))
FOREACH (gid IN CASE WHEN r.agent IS NULL THEN [] ELSE [r.agent] END |
  MERGE (g:Agent {id: gid})
  CREATE (g)-[:PRODUCED]->(a))
FOREACH (e IN r.entities |
  MERGE (n:Entity {key: e.key})
  ON CREATE SET n.name = e.name, n.type = e.type, n.mentions = 0, n.aliases = [], n.created_at = $now
  SET n.mentions = n.mentions + 1,
      n.aliases = CASE WHEN e.name = n.name OR e.name IN n.aliases THEN n.aliases ELSE n.aliases + [e.name] END
  CREATE (a)-[:REFERENCES]->(n))
FOREACH (t IN r.triples |
  MERGE (s:Entity {key: t.subject})
  ON CREATE SET s.name = t.subject_name, s.type = 'other', s.mentions = 0, s.aliases = [], s.created_at = $now
  MERGE (o:Entity {key: t.object})
  ON CREATE SET o.name = t.object_name, o.type = 'other', o.mentions = 0, o.aliases = [], o.created_at = $now
  MERGE (s)-[rel:RELATED_TO {relation: t.relation}]->(o)
  ON CREATE SET rel.weight = 0.0, rel.artifact_ids = [], rel.created_at = $now, rel.valid_at = r.valid_at, rel.label = t.label
  SET rel.weight = rel.weight + t.weight, rel.artifact_ids = rel.artifact_ids + [r.id])
WITH count(a) AS created, sum(a.n_tokens) AS tokens
MATCH (m:_Meta {id: 'meta'})
SET m.n_docs = coalesce(m.n_docs, 0) + created, m.n_tokens = coalesce(m.n_tokens, 0) + tokens
RETURN created
