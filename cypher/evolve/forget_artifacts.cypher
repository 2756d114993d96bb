// name: forget_artifacts
// mode: write
// params: ids
// Erases memories: each node is deleted with its text, embedding (so it leaves the vector
// index), metadata and every link; the keyword statistics in _Meta shrink, and so does the
// document frequency of each stem it held (_Term.df; a stem in no memory any more goes). Turn order survives:
// each run of erased memories in a session's NEXT chain is bridged from the memory before it to
// the one after it, and a session whose last memory goes gets the last one before the run. Returns what the
// clean-up needs: the entity keys and sessions they touched.
CALL {
  UNWIND $ids AS id
  MATCH (p:Artifact)-[:NEXT]->(a:Artifact {id: id})
  WHERE NOT p.id IN $ids
  OPTIONAL MATCH path = (a)-[:NEXT*1..]->(n:Artifact)
  WHERE NOT n.id IN $ids AND all(x IN nodes(path) WHERE x.id IN $ids OR x = n)
  FOREACH (y IN CASE WHEN n IS NULL THEN [] ELSE [n] END | CREATE (p)-[:NEXT]->(y))
  WITH p, n WHERE n IS NULL AND p.session_id IS NOT NULL
  MATCH (s:Session {id: p.session_id})
  WHERE s.last IN $ids
  SET s.last = p.id
  RETURN count(*) AS bridged
}
UNWIND $ids AS id
MATCH (a:Artifact {id: id})
OPTIONAL MATCH (a)-[:REFERENCES]->(e:Entity)
WITH a, collect(e.key) AS ekeys
WITH collect(a) AS arts, collect(ekeys) AS keysets, count(a) AS n, collect(a.stems) AS bags,
     sum(coalesce(a.n_tokens, 0)) AS tokens, collect(a.id) AS gone, collect(a.session_id) AS sessions
FOREACH (x IN arts | DETACH DELETE x)
WITH n, tokens, gone, sessions, bags, reduce(acc = [], ks IN keysets | acc + ks) AS keys
CALL {
  WITH bags
  UNWIND bags AS bag
  UNWIND split(trim(coalesce(bag, '')), ' ') AS item
  WITH split(item, ':')[0] AS stem
  WHERE stem <> ''
  WITH stem, count(*) AS c
  MATCH (t:_Term {stem: stem})
  SET t.df = t.df - c
  WITH t WHERE t.df <= 0
  DELETE t
  RETURN count(*) AS emptied
}
MATCH (m:_Meta {id: 'meta'})
SET m.n_docs = coalesce(m.n_docs, 0) - n, m.n_tokens = coalesce(m.n_tokens, 0) - tokens
RETURN n AS deleted, tokens, gone, keys, sessions
