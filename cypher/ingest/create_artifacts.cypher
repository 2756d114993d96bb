// name: create_artifacts
// mode: write
// params: rows, now, chains, spill_at, keep, sep
// Creates a batch of artifacts in one atomic query: the node with its embedding, its session,
// user and agent links, the entities it references (MERGEd by key) and the RELATED_TO evidence
// between them (subject -> object). The unique constraint on Artifact.id refuses a duplicate id,
// so a retried batch can never be applied twice.
// Keyed facts (r.key set) are placed into their key's history in the same query, so concurrent
// writers cannot leave two active facts: `prev` is the latest version valid at r.valid_at, `nxt` the
// first one after it, ordered by valid_at, then created_at, then seq (the write sequence: the
// versions of one add_many share valid_at and created_at). A restatement (same fact_hash as
// `prev`) creates nothing. Otherwise the new artifact SUPERSEDES `prev` (which becomes
// superseded, invalid from r.valid_at) and, when a newer `nxt` exists, is itself stored
// superseded by `nxt` (told late: history stays in time order).
// The caller sends at most one row per key per query.
// Every property is given in the CREATE (a null one is simply not set). Setting them on the new
// node afterwards re-inserted it into the HNSW index: 0.55 ms a memory more of server time
// (91.6 against 56.2 ms for a batch of 64 MuSiQue passages, ~40 % of the write), and a live
// index that missed exact neighbours on 1-2 of 100 MuSiQue questions (docs/performance.md).
// REFERENCES.head is true when the entity is named in the memory's head (its title line, else its
// first sentence unless it is an episode; extraction/head.py): what the memory is about. The
// graph channel follows such links. Only a head link carries the property (null is not stored).
// Edge evidence: each statement appends the memory's id to its edge's `evidence` (ids joined by
// $sep); an edge whose string then holds more than $spill_at ids moves all but the newest $keep
// to the end of `evidence_old` (ingest/create_batch says why; the two are every stating memory).
// Batches of memories without fact keys go through ingest/create_batch, which writes the same
// graph with one MERGE per distinct entity, edge and stem.
// Turn order: $chains holds, per session of the batch, its rows' ids in the order they were given
// ([{session, ids}]). Each memory of a session is linked from the one written before it in that
// session, (prev)-[:NEXT]->(next): inside the batch in the given order, and the batch's first from
// the session's last memory so far (Session.last, then moved to the batch's last). A row that
// created nothing (a restated fact) is left out of its chain. The turn walk of a search follows
// NEXT both ways (retrieve/turns).
// Document frequencies: each stem of a created memory's stem counts (a.stems, " stem:count ... ")
// adds one to its _Term node's df, which the keyword channel reads (retrieve/keyword_search).
// A write that created memories adds one to _Meta.entity_stamp and returns it: other processes
// see their known-entity index is stale (admin/read_entity_stamp), the writer that it is not.
UNWIND $rows AS r
CALL {
  WITH r
  OPTIONAL MATCH (prev:Artifact {key: r.key})
  WHERE r.key IS NOT NULL AND prev.status IN ['active', 'superseded'] AND prev.valid_at <= r.valid_at
  RETURN prev ORDER BY prev.valid_at DESC, prev.created_at DESC, coalesce(prev.seq, 0) DESC LIMIT 1
}
CALL {
  WITH r
  OPTIONAL MATCH (nxt:Artifact {key: r.key})
  WHERE r.key IS NOT NULL AND nxt.status IN ['active', 'superseded'] AND nxt.valid_at > r.valid_at
  RETURN nxt ORDER BY nxt.valid_at ASC, nxt.created_at ASC, coalesce(nxt.seq, 0) ASC LIMIT 1
}
WITH r, prev, nxt
WHERE prev IS NULL OR r.fact_hash IS NULL OR prev.fact_hash IS NULL OR prev.fact_hash <> r.fact_hash
CREATE (a:Artifact {id: r.id, text: r.text, kind: r.kind, embedding: vecf32(r.embedding),
                    created_at: $now, valid_at: r.valid_at, metadata: r.metadata,
                    attribution: r.attribution, n_tokens: r.n_tokens, stems: r.stems, seq: r.seq,
                    status: CASE WHEN nxt IS NULL THEN 'active' ELSE 'superseded' END,
                    session_id: r.session, speaker: r.speaker, agent_id: r.agent, user_id: r.user,
                    key: r.key, source: r.source, fact_hash: r.fact_hash, invalid_at: nxt.valid_at,
                    meta_kv: r.meta_kv})
FOREACH (x IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END |
  SET x.status = 'superseded', x.invalid_at = r.valid_at
  CREATE (a)-[:SUPERSEDES {created_at: $now, reason: 'key'}]->(x))
FOREACH (x IN CASE WHEN nxt IS NULL THEN [] ELSE [nxt] END |
  CREATE (x)-[:SUPERSEDES {created_at: $now, reason: 'key'}]->(a))
WITH a, r, prev, nxt
OPTIONAL MATCH (nxt)-[old:SUPERSEDES]->(prev)
DELETE old
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
  CREATE (a)-[:REFERENCES {head: CASE WHEN e.head THEN true ELSE null END}]->(n))
FOREACH (t IN r.triples |
  MERGE (s:Entity {key: t.subject})
  ON CREATE SET s.name = t.subject_name, s.type = 'other', s.mentions = 0, s.aliases = [], s.created_at = $now
  MERGE (o:Entity {key: t.object})
  ON CREATE SET o.name = t.object_name, o.type = 'other', o.mentions = 0, o.aliases = [], o.created_at = $now
  MERGE (s)-[rel:RELATED_TO {relation: t.relation}]->(o)
  ON CREATE SET rel.weight = 0.0, rel.created_at = $now, rel.valid_at = r.valid_at, rel.label = t.label
  SET rel.weight = rel.weight + t.weight, rel.evidence = coalesce(rel.evidence + $sep, '') + r.id)
WITH collect(a.id) AS ids, sum(a.n_tokens) AS tokens, collect(a.stems) AS bags, collect(r.triples) AS stated
CALL {
  WITH stated
  UNWIND stated AS ts
  UNWIND ts AS t
  WITH DISTINCT t.subject AS sk, t.relation AS rk, t.object AS ok
  MATCH (s:Entity {key: sk})
  MATCH (o:Entity {key: ok})
  MATCH (s)-[rel:RELATED_TO {relation: rk}]->(o)
  WITH rel WHERE size(rel.evidence) > $spill_at
  WITH rel, split(rel.evidence, $sep) AS evidence
  WHERE size(evidence) > $spill_at
  SET rel.evidence_old = coalesce(rel.evidence_old + $sep, '') + string.join(evidence[..size(evidence) - $keep], $sep),
      rel.evidence = string.join(evidence[size(evidence) - $keep..], $sep)
  RETURN count(*) AS spilled
}
CALL {
  WITH ids
  UNWIND $chains AS c
  WITH c, [i IN c.ids WHERE i IN ids] AS made
  WHERE size(made) > 0
  MATCH (s:Session {id: c.session})
  OPTIONAL MATCH (p:Artifact {id: s.last})
  WITH s, made, CASE WHEN p IS NULL THEN [] ELSE [p.id] END + made AS chain
  SET s.last = last(made)
  WITH chain
  UNWIND range(0, size(chain) - 2) AS k
  MATCH (x:Artifact {id: chain[k]})
  MATCH (y:Artifact {id: chain[k + 1]})
  CREATE (x)-[:NEXT]->(y)
  RETURN count(*) AS linked
}
CALL {
  WITH bags
  UNWIND bags AS bag
  UNWIND split(trim(bag), ' ') AS item
  WITH split(item, ':')[0] AS stem
  WHERE stem <> ''
  WITH stem, count(*) AS c
  MERGE (t:_Term {stem: stem})
  ON CREATE SET t.df = 0
  SET t.df = t.df + c
  RETURN count(t) AS terms
}
MATCH (m:_Meta {id: 'meta'})
SET m.n_docs = coalesce(m.n_docs, 0) + size(ids), m.n_tokens = coalesce(m.n_tokens, 0) + tokens,
    m.entity_stamp = coalesce(m.entity_stamp, 0) + CASE WHEN size(ids) > 0 THEN 1 ELSE 0 END
RETURN size(ids) AS created, ids, m.entity_stamp AS stamp
