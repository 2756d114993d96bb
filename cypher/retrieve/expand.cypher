// name: expand
// mode: read
// params: seeds, named, named_weight, max_score, max_mentions, per_entity, head_weight, tail_weight, max_hops, hop_weight, relations, depth, walk_from, walk_per_entity, walk_fanout, walk_weight, evidence_weight, reach_weight, walk_floor, limit, vector, sep, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
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
// - The relational walk ($depth >= 1: the question names relations, $relations their labels;
//   routing/relations.py): from the $walk_from strongest bridge and named entities, $depth
//   steps over the RELATED_TO edges whose relation the question asks, the second from the
//   $walk_from strongest entities the first reached (never straight back). Each entity reads
//   at most $walk_fanout of its matching edges, the heaviest first, in its own CALL with a
//   LIMIT, and follows the $walk_per_entity heaviest; an edge passes on $walk_weight *
//   min(1, weight) / (matching edges of its entity of the same kind, typed or co-mention) of
//   the entity's activation: the one "created" edge of a song ("a song by Pearl Jam") is not
//   worth a thirtieth because thirty memories co-mention the song with other names. A typed edge
//   (leads, reports_to...) passes on the activation before specificity (a seed weighs 1, a named
//   entity $named_weight): the relation the question asks is specific in itself. A related_to
//   (co-mention) edge passes on the specific share, times the specificity of its far end, and
//   what it reaches counts only for memories among the vector channel's candidates (cosine >=
//   $walk_floor): co-mention walks spread widely, so they re-rank what dense search found
//   rather than add to it. The memories that state a walked edge (its evidence: ids joined by $sep) get
//   $evidence_weight times what it passed ("Priya Chandran reports to Marcus Webb" for the
//   question's "manages"); the entity reached leads to the memories about it as a bridge
//   does, and where the steps that reached it were all typed, those memories also get
//   $reach_weight times what they got for being about it, counted with what stated edges get:
//   the director's passage reached from the film a question names over `created` is on the
//   chain, the actors' passages the film's passage merely names are not. Edges of other
//   relations are not walked.
// A memory whose links all count 0 is not returned, and `via` names only the links that count.
// A memory's score is capped at $max_score (after ranking by the uncapped sum): one titled like
// several bridges at once ("Atomic bombings of Hiroshima and Nagasaki" for the bridges
// Hiroshima, Nagasaki and Atomic) must not outweigh the dense evidence of everything else. What
// the memories stating walked edges get is capped apart (a memory on the chain the question
// describes adds that to what it is about), so the two together reach at most 2 * $max_score.
// $as_of / $f_*: as in vector_search. Returns each reached memory with its graph score, its
// cosine similarity to $vector (for fusion), the entities it was reached through and up to
// three RELATED_TO paths taken to reach it. Projected properties only: never the embedding.
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
  RETURN collect({e: e, w: w * log(1.0 + n / toFloat(CASE WHEN e.mentions < 1 THEN 1 ELSE e.mentions END)) / log(1.0 + n), raw: w, path: []}) AS bridges
}
CALL {
  WITH n
  UNWIND $named AS key
  MATCH (e:Entity {key: key})
  WHERE e.mentions <= $max_mentions AND $named_weight > 0
  RETURN collect({e: e, w: $named_weight * log(1.0 + n / toFloat(CASE WHEN e.mentions < 1 THEN 1 ELSE e.mentions END)) / log(1.0 + n), raw: $named_weight, path: []}) AS named
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
  RETURN collect({e: o, w: $hop_weight * w * log(1.0 + n / toFloat(CASE WHEN o.mentions < 1 THEN 1 ELSE o.mentions END)) / log(1.0 + n), path: [step]}) AS level2
}
CALL {
  WITH n, level1
  UNWIND level1 AS l
  WITH n, l WHERE $depth >= 1 AND size($relations) > 0
  WITH n, l.e AS e, sum(l.w) AS w, sum(l.raw) AS raw
  ORDER BY w DESC, e.key LIMIT $walk_from
  RETURN collect({e: e, w: w, raw: raw}) AS froms
}
CALL {
  WITH n, froms
  UNWIND froms AS f
  WITH n, f.e AS e, f.w AS w, f.raw AS raw
  CALL {
    WITH e
    MATCH (e)-[r:RELATED_TO]-(o:Entity)
    WHERE r.relation IN $relations AND o.mentions <= $max_mentions AND NOT o.key IN $named
    WITH o, r ORDER BY r.weight DESC, o.key LIMIT $walk_fanout
    WITH collect({o: o, r: r}) AS es
    WITH es, size([z IN es WHERE z.r.relation <> 'related_to']) AS typed_fan
    UNWIND es[..$walk_per_entity] AS y
    RETURN y.o AS o, y.r AS r, CASE WHEN y.r.relation <> 'related_to' THEN typed_fan ELSE size(es) - typed_fan END AS fan
  }
  WITH n, e, o, r, w, raw, r.relation <> 'related_to' AS typed, log(1.0 + n / toFloat(CASE WHEN o.mentions < 1 THEN 1 ELSE o.mentions END)) / log(1.0 + n) AS spec,
       $walk_weight * (CASE WHEN r.weight < 1.0 THEN r.weight ELSE 1.0 END) / toFloat(fan) AS share
  WITH e, o, r, typed, spec, share * CASE WHEN typed THEN raw ELSE w END AS x
  RETURN collect({e: o, w: x * spec, raw: CASE WHEN typed THEN x ELSE x * spec END, t: x, g: NOT typed,
                  path: [[startNode(r).name, r.relation, endNode(r).name]], ids: split(CASE WHEN r.evidence_old IS NULL THEN r.evidence ELSE r.evidence_old + $sep + r.evidence END, $sep), via: o.name, src: e.key}) AS first
}
CALL {
  WITH n, first
  UNWIND first AS f
  WITH n, f WHERE $depth >= 2
  WITH n, f ORDER BY f.raw DESC
  WITH n, f.e AS e, sum(f.w) AS w, sum(f.raw) AS raw, collect(f.path)[0] AS path, collect(f.src)[0] AS back,
       all(x IN collect(f.g) WHERE x) AS gated
  ORDER BY raw DESC, e.key LIMIT $walk_from
  CALL {
    WITH e, back
    MATCH (e)-[r:RELATED_TO]-(o:Entity)
    WHERE r.relation IN $relations AND o.mentions <= $max_mentions AND NOT o.key IN $named AND o.key <> back
    WITH o, r ORDER BY r.weight DESC, o.key LIMIT $walk_fanout
    WITH collect({o: o, r: r}) AS es
    WITH es, size([z IN es WHERE z.r.relation <> 'related_to']) AS typed_fan
    UNWIND es[..$walk_per_entity] AS y
    RETURN y.o AS o, y.r AS r, CASE WHEN y.r.relation <> 'related_to' THEN typed_fan ELSE size(es) - typed_fan END AS fan
  }
  WITH n, o, r, path, gated, w, raw, r.relation <> 'related_to' AS typed, log(1.0 + n / toFloat(CASE WHEN o.mentions < 1 THEN 1 ELSE o.mentions END)) / log(1.0 + n) AS spec,
       $walk_weight * (CASE WHEN r.weight < 1.0 THEN r.weight ELSE 1.0 END) / toFloat(fan) AS share
  WITH o, r, path, gated, typed, spec, share * CASE WHEN typed THEN raw ELSE w END AS x
  RETURN collect({e: o, w: x * spec, t: x, g: gated OR NOT typed,
                  path: path + [[startNode(r).name, r.relation, endNode(r).name]], ids: split(CASE WHEN r.evidence_old IS NULL THEN r.evidence ELSE r.evidence_old + $sep + r.evidence END, $sep), via: o.name}) AS second
}
WITH level1, level2, first + second AS walked
WITH [l IN level1 + level2 | {e: l.e, w: l.w, path: l.path, g: false, ty: false}] + [x IN walked | {e: x.e, w: x.w, path: x.path, g: x.g, ty: NOT x.g}] AS reached,
     [x IN walked WHERE $evidence_weight > 0 | {ids: x.ids, w: x.t * $evidence_weight, path: x.path, via: x.via, g: x.g}] AS stated
CALL {
  WITH reached
  UNWIND reached AS l
  WITH l.e AS e, sum(CASE WHEN l.g THEN 0.0 ELSE l.w END) AS w, sum(CASE WHEN l.g THEN l.w ELSE 0.0 END) AS wg,
       sum(CASE WHEN l.ty THEN l.w ELSE 0.0 END) AS wt, [p IN collect(l.path) WHERE size(p) > 0][..1] AS paths
  CALL {
    WITH e
    MATCH (c:Artifact)-[ref:REFERENCES]->(e)
    RETURN c, coalesce(ref.head, false) AS head LIMIT $max_mentions
  }
  WITH c, e, paths, CASE WHEN head THEN 1.0 + $head_weight ELSE $tail_weight END AS link, w, wg, wt
  WHERE link > 0
  RETURN collect({c: c, s: w * link, sg: wg * link, t: wt * link * $reach_weight, tg: 0.0, via: e.name, paths: paths}) AS about
}
CALL {
  WITH stated
  UNWIND stated AS x
  UNWIND x.ids AS id
  MATCH (c:Artifact {id: id})
  RETURN collect({c: c, s: 0.0, sg: 0.0, t: CASE WHEN x.g THEN 0.0 ELSE x.w END, tg: CASE WHEN x.g THEN x.w ELSE 0.0 END,
                  via: x.via, paths: [x.path]}) AS told
}
UNWIND about + told AS h
WITH h.c AS c, h.s AS s, h.sg AS sg, h.t AS t, h.tg AS tg, h.via AS via, h.paths AS paths
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
WITH c, sum(s) AS about, sum(sg) AS about_g, sum(t) AS told, sum(tg) AS told_g, collect(via)[..3] AS via, collect(paths) AS paths
WITH c, about, about_g, told, told_g, via, paths, 1.0 - vec.cosineDistance(c.embedding, vecf32($vector)) AS sim
WITH c, via, paths, sim, about + CASE WHEN sim >= $walk_floor THEN about_g ELSE 0.0 END AS about,
     told + CASE WHEN sim >= $walk_floor THEN told_g ELSE 0.0 END AS told
WHERE about + told > 0
WITH c, via, paths, sim, about, told
ORDER BY about + told DESC, c.id
LIMIT $limit
RETURN c {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key} AS a,
       (CASE WHEN about > $max_score THEN $max_score ELSE about END)
         + (CASE WHEN told > $max_score THEN $max_score ELSE told END) AS score,
       sim, via,
       [p IN reduce(acc = [], ps IN paths | acc + ps) WHERE size(p) > 0][..3] AS paths
