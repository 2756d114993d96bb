// name: links
// mode: read
// params: seeds, by_distance, rare_max, rare_types, vector, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// The links channel in one round trip: from the memories a search ranked first ($seeds: [{id, w}],
// w = how far the seed's score stands above the field) along the links that join two memories
// directly, "the same conversation" and "the same trip":
// - turn order: the memories written just before and after a seed in its session, along NEXT
//   edges in both directions, up to size($by_distance) steps; a memory d steps away gets
//   w * $by_distance[d - 1] (the turn that answers a question, the message that continues a story);
// - a shared rare identifier: the other memories that name an identifier or email the seed names
//   (an entity of a type in $rare_types mentioned by 2 to $rare_max memories: a booking code, a
//   flight number), w times the identifier's specificity log(1 + N / mentions) / log(1 + N).
// A memory reached several ways keeps its strongest link. Each comes back with its cosine
// similarity to $vector (fusion weighs it like any candidate) and what reached it (`via`: the
// seed's id for a turn, the identifier's name for a shared one). $as_of and $f_* as in
// vector_search: a reached memory must pass them. Projected properties only: never the embedding.
MATCH (m:_Meta {id: 'meta'})
WITH CASE WHEN coalesce(m.n_docs, 0) < 2 THEN 2.0 ELSE toFloat(m.n_docs) END AS n
UNWIND $seeds AS s
MATCH (x:Artifact {id: s.id})
CALL {
  WITH x, s
  MATCH p = (x)-[:NEXT*1..3]-(c:Artifact)
  WITH s, c, length(p) AS d
  WHERE d <= size($by_distance)
  RETURN collect({c: c, w: s.w * $by_distance[d - 1], via: s.id}) AS turns
}
CALL {
  WITH x, s, n
  MATCH (x)-[:REFERENCES]->(e:Entity)
  WHERE e.type IN $rare_types AND e.mentions >= 2 AND e.mentions <= $rare_max
  MATCH (e)<-[:REFERENCES]-(c:Artifact)
  WHERE c <> x
  RETURN collect({c: c, w: s.w * log(1.0 + n / toFloat(e.mentions)) / log(1.0 + n), via: e.name}) AS shared
}
UNWIND turns + shared AS l
WITH l.c AS c, l.w AS w, l.via AS via
ORDER BY w DESC
WITH c, collect(w)[0] AS w, collect(via)[0] AS via
WHERE (($as_of IS NULL AND c.status = 'active') OR ($as_of IS NOT NULL AND c.status IN ['active', 'superseded']
       AND c.canonical_id IS NULL AND c.valid_at <= $as_of AND (c.invalid_at IS NULL OR c.invalid_at > $as_of)))
  AND ($f_sessions IS NULL OR c.session_id IN $f_sessions)
  AND ($f_users IS NULL OR c.user_id IN $f_users)
  AND ($f_agents IS NULL OR c.agent_id IN $f_agents)
  AND ($f_speakers IS NULL OR c.speaker IN $f_speakers)
  AND ($f_kinds IS NULL OR c.kind IN $f_kinds)
  AND ($f_since IS NULL OR c.valid_at >= $f_since)
  AND ($f_until IS NULL OR c.valid_at < $f_until)
  AND ($f_meta IS NULL OR all(kv IN $f_meta WHERE kv IN c.meta_kv))
RETURN c {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key} AS a,
       w, 1.0 - vec.cosineDistance(c.embedding, vecf32($vector)) AS sim, via
ORDER BY w DESC, a.id
