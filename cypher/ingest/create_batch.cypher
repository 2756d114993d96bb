// name: create_batch
// mode: write
// params: rows, entities, endpoints, refs, edges, terms, tokens, chains, now, spill_at, keep, sep
// Creates a batch of memories without fact keys in one atomic query, the batch's graph writes
// aggregated by the caller (falkmem/ingest/aggregate.py): one MERGE per distinct entity, edge
// and stem of the batch, not one per mention. What it leaves is what ingest/create_artifacts
// leaves for the same rows, node for node and in the same creation order (the test
// tests/integration/test_write_batch.py compares the two graphs property by property):
// - $rows: the memories, as ingest/create_artifacts takes them (without entities and triples);
//   each creates its Artifact with every property in the CREATE (the HNSW index is written once),
//   its session, user and agent links. The unique constraint on Artifact.id refuses a duplicate.
// - $entities: the distinct entities the batch's memories name, in the order they are first
//   named ([{key, name, type, count, names}]): created with the first mention's name and type,
//   `mentions` raised by `count` (the batch's mentions), each new surface form in `names`
//   appended to `aliases` unless it is the name or an alias already (the write path's rule,
//   one mention after another). One update per entity per batch: every update of an Entity
//   node re-indexes it (its label has the key index), ~25 us each.
// - $endpoints: entities only named as a relation's subject or object ([{key, name}]), after
//   those, in first-use order: created if new (type 'other', no mention), never updated.
// - $refs: the REFERENCES links, one per mention, in mention order ([{a, e, h}]: the row's
//   and the entity's index in $rows and $entities + $endpoints; h true when the entity is named
//   in the memory's head, else null: only a head link carries the property).
// - $edges: the distinct RELATED_TO edges (subject -> object, relation) in first-statement
//   order ([{s, o, relation, label, valid_at, weights, ids}]): weight raised by each statement's
//   weight in turn, the stating memories' ids (`ids`, joined by $sep) appended in order. The
//   evidence is two strings of ids joined by $sep (a control character no id holds; a string
//   costs ~17 bytes an id, a list of strings ~68): the newest in `evidence`; when it passes
//   $spill_at ids, all but the newest $keep move to the end of `evidence_old`, so a restatement
//   rewrites at most $spill_at ids and the older string once per ($spill_at - $keep) statements.
//   evidence_old + evidence is every stating memory, oldest first (what the relational walk and
//   erasing read; falkmem/ingest/aggregate.py: evidence_ids).
// - $terms: each stem of the batch with how many of its memories hold it ([{stem, c}]): the
//   document frequencies the keyword channel reads (_Term.df); $tokens: the batch's tokens.
// - $chains: per session, its rows' ids in the order given: NEXT links, as in create_artifacts.
// Returns the created ids and the tenant's entity stamp after the write (see create_artifacts).
UNWIND range(0, size($rows) - 1) AS i
WITH i, $rows[i] AS r
CREATE (a:Artifact {id: r.id, text: r.text, kind: r.kind, embedding: vecf32(r.embedding),
                    created_at: $now, valid_at: r.valid_at, metadata: r.metadata,
                    attribution: r.attribution, n_tokens: r.n_tokens, stems: r.stems, seq: r.seq,
                    status: 'active',
                    session_id: r.session, speaker: r.speaker, agent_id: r.agent, user_id: r.user,
                    key: r.key, source: r.source, fact_hash: r.fact_hash, invalid_at: null,
                    meta_kv: r.meta_kv})
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
WITH i, a ORDER BY i
WITH collect(a) AS arts
CALL {
  WITH arts
  UNWIND range(0, size($entities) - 1) AS i
  WITH i, $entities[i] AS e
  MERGE (n:Entity {key: e.key})
  ON CREATE SET n.name = e.name, n.type = e.type, n.mentions = e.count,
                n.aliases = reduce(acc = [], nm IN e.names | CASE WHEN nm = e.name OR nm IN acc THEN acc ELSE acc + [nm] END),
                n.created_at = $now
  ON MATCH SET n.mentions = n.mentions + e.count,
               n.aliases = reduce(acc = n.aliases, nm IN e.names | CASE WHEN nm = n.name OR nm IN acc THEN acc ELSE acc + [nm] END)
  WITH i, n ORDER BY i
  RETURN collect(n) AS named
}
CALL {
  WITH arts
  UNWIND range(0, size($endpoints) - 1) AS i
  WITH i, $endpoints[i] AS e
  MERGE (n:Entity {key: e.key})
  ON CREATE SET n.name = e.name, n.type = 'other', n.mentions = 0, n.aliases = [], n.created_at = $now
  WITH i, n ORDER BY i
  RETURN collect(n) AS ends
}
WITH arts, named + ends AS ents
CALL {
  WITH arts, ents
  UNWIND $refs AS f
  WITH arts[f.a] AS a, ents[f.e] AS n, f.h AS h
  CREATE (a)-[:REFERENCES {head: h}]->(n)
  RETURN count(*) AS referenced
}
CALL {
  WITH ents
  UNWIND $edges AS t
  WITH ents[t.s] AS s, ents[t.o] AS o, t
  MERGE (s)-[rel:RELATED_TO {relation: t.relation}]->(o)
  ON CREATE SET rel.weight = reduce(w = 0.0, x IN t.weights | w + x), rel.evidence = t.ids,
                rel.created_at = $now, rel.valid_at = t.valid_at, rel.label = t.label
  ON MATCH SET rel.weight = reduce(w = rel.weight, x IN t.weights | w + x),
               rel.evidence = coalesce(rel.evidence + $sep, '') + t.ids
  WITH rel WHERE size(rel.evidence) > $spill_at
  WITH rel, split(rel.evidence, $sep) AS ids
  WHERE size(ids) > $spill_at
  SET rel.evidence_old = coalesce(rel.evidence_old + $sep, '') + string.join(ids[..size(ids) - $keep], $sep),
      rel.evidence = string.join(ids[size(ids) - $keep..], $sep)
  RETURN count(*) AS spilled
}
WITH [x IN arts | x.id] AS ids
CALL {
  WITH ids
  UNWIND $chains AS c
  MATCH (s:Session {id: c.session})
  OPTIONAL MATCH (p:Artifact {id: s.last})
  WITH s, c.ids AS made, CASE WHEN p IS NULL THEN [] ELSE [p.id] END + c.ids AS chain
  SET s.last = last(made)
  WITH chain
  UNWIND range(0, size(chain) - 2) AS k
  MATCH (x:Artifact {id: chain[k]})
  MATCH (y:Artifact {id: chain[k + 1]})
  CREATE (x)-[:NEXT]->(y)
  RETURN count(*) AS linked
}
CALL {
  WITH ids
  UNWIND $terms AS t
  MERGE (x:_Term {stem: t.stem})
  ON CREATE SET x.df = t.c
  ON MATCH SET x.df = x.df + t.c
  RETURN count(x) AS terms
}
MATCH (m:_Meta {id: 'meta'})
SET m.n_docs = coalesce(m.n_docs, 0) + size(ids), m.n_tokens = coalesce(m.n_tokens, 0) + $tokens,
    m.entity_stamp = coalesce(m.entity_stamp, 0) + CASE WHEN size(ids) > 0 THEN 1 ELSE 0 END
RETURN size(ids) AS created, ids, m.entity_stamp AS stamp
