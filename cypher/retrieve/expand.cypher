// name: expand
// mode: read
// params: seeds, named, named_weight, max_score, max_mentions, per_entity, head_weight, tail_weight, max_hops, hop_weight, limit, vector, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// The graph channel in one round trip: from the memories the vector channel ranked first
// ($seeds: [{id, w}], w = the seed's weight) to the entities they mention, then to the other
// memories that mention the same entities. This finds the memory a chain of facts needs next
// (the passage *about* the band a first passage names), which shares no words with the question.
// - Bridge entities: the entities the seeds name, except those the query itself names
//   ($named): memories that merely share those are what vector and keyword search find.
// - Named entities ($named, the keys the query names) are followed directly instead: each
//   passes on $named_weight (times its specificity) to the memories *about* it, like a query
//   entity in HippoRAG's reset vector: the passage about the film a question names is the first
//   hop of its chain, even when its text looks little like the question.
// - Specificity: an entity passes on w * log(1 + N / mentions) / log(1 + N) (N = memories in
//   the tenant), so a name in many memories says little (HippoRAG's node specificity, in log form).
// - Hub guard: entities named by more than $max_mentions memories are not followed at all (an
//   O(1) property test, no edge is walked); each followed entity's memories are read with
//   LIMIT $max_mentions, which therefore never cuts, so no storage order decides anything.
// - A link from a memory to an entity named in its head (REFERENCES.head: its title line, else
//   the first sentence of any kind but an episode; extraction/head.py) counts 1 + $head_weight: the memory is about that entity; a link to one it only mentions
//   counts $tail_weight (default 0: a bridge leads to the memories about it, not to every chat
//   turn that mentions it).
// - $max_hops >= 2 also steps once over RELATED_TO from each bridge entity (the $per_entity
//   heaviest edges, ties by key), at $hop_weight of the entity's share.
// A memory whose links all count 0 is not returned, and `via` names only the links that count.
// A memory's score is capped at $max_score (after ranking by the uncapped sum): one titled like
// several bridges at once ("Atomic bombings of Hiroshima and Nagasaki" for the bridges
// Hiroshima, Nagasaki and Atomic) must not outweigh the dense evidence of everything else.
// $as_of / $f_*: as in vector_search. Returns each reached memory with its graph score, its
// cosine similarity to $vector (for fusion), the bridge entities it was reached through and the
// RELATED_TO steps taken. Projected properties only: never the embedding.
// (The seeds are matched by id before their entities: given the pattern in one MATCH, the
// planner scanned every Entity and traversed back to the seeds, 70 ms on 38,000 entities.)
MATCH (m:_Meta {id: 'meta'})
WITH CASE WHEN coalesce(m.n_docs, 0) < 2 THEN 2.0 ELSE toFloat(m.n_docs) END AS n
CALL {
  WITH n
  UNWIND $seeds AS s
  MATCH (x:Artifact {id: s.id})
  WITH n, x, s.w AS sw
  MATCH (x)-[:REFERENCES]->(e:Entity)
  WHERE NOT e.key IN $named AND e.mentions <= $max_mentions
  WITH n, e, sum(sw) AS w
  RETURN collect({e: e, w: w * log(1.0 + n / toFloat(CASE WHEN e.mentions < 1 THEN 1 ELSE e.mentions END)) / log(1.0 + n), step: null}) AS bridges
}
CALL {
  WITH n
  UNWIND $named AS key
  MATCH (e:Entity {key: key})
  WHERE e.mentions <= $max_mentions AND $named_weight > 0
  RETURN collect({e: e, w: $named_weight * log(1.0 + n / toFloat(CASE WHEN e.mentions < 1 THEN 1 ELSE e.mentions END)) / log(1.0 + n), step: null}) AS named
}
WITH n, bridges + named AS level1
CALL {
  WITH n, level1
  UNWIND level1 AS l
  WITH n, l WHERE $max_hops >= 2
  WITH n, l.e AS e, l.w AS w
  CALL {
    WITH e
    MATCH (e)-[r:RELATED_TO]-(o:Entity)
    WHERE o.mentions <= $max_mentions AND NOT o.key IN $named
    RETURN o, r ORDER BY r.weight DESC, o.key LIMIT $per_entity
  }
  WITH n, o, sum(w) AS w, collect([startNode(r).name, r.relation, endNode(r).name])[0] AS step
  RETURN collect({e: o, w: $hop_weight * w * log(1.0 + n / toFloat(CASE WHEN o.mentions < 1 THEN 1 ELSE o.mentions END)) / log(1.0 + n), step: step}) AS level2
}
UNWIND level1 + level2 AS l
WITH l.e AS e, sum(l.w) AS w, [x IN collect(l.step) WHERE x IS NOT NULL][..1] AS steps
CALL {
  WITH e
  MATCH (c:Artifact)-[ref:REFERENCES]->(e)
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
  RETURN c, coalesce(ref.head, false) AS head LIMIT $max_mentions
}
WITH c, sum(w * CASE WHEN head THEN 1.0 + $head_weight ELSE $tail_weight END) AS score,
     collect(CASE WHEN head OR $tail_weight > 0 THEN e.name END)[..3] AS via, collect(steps) AS steps
WHERE score > 0
WITH c, score, via, steps
ORDER BY score DESC, c.id
LIMIT $limit
RETURN c {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key} AS a,
       CASE WHEN score > $max_score THEN $max_score ELSE score END AS score,
       1.0 - vec.cosineDistance(c.embedding, vecf32($vector)) AS sim, via,
       [s IN steps WHERE size(s) > 0 | s][..3] AS paths
