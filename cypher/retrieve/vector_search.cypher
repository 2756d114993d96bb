// name: vector_search
// mode: read
// params: vector, fetch_k, full, as_of, f_sessions, f_users, f_agents, f_speakers, f_kinds, f_since, f_until, f_meta
// $as_of: null = active memories only; epoch seconds = what was true then (valid_at <= as_of <
// invalid_at, superseded included, erased and duplicate-linked ones excluded).
// $f_*: the search filters (falkmem/retrieval/filters.py; null = no condition). The index
// filters after its kNN step, so a selective filter can leave fewer than k: the caller then
// selects through the graph (vector_filtered) or asks for more neighbours.
// Nearest active artifacts to a query embedding. `distance` is the cosine distance (1 - cos,
// lower is better); callers convert it. Projected properties only: never the embedding.
// Only the $full nearest are projected whole; the rest carry {id, valid_at, speaker, session_id}: fusion ranks them
// by id and score, and a search needs the text of the few that win (fetched by id when one
// of them was cut; retrieval/pipeline.py). 50 rows of text cost the client more than the
// index search itself.
CALL db.idx.vector.queryNodes('Artifact', 'embedding', $fetch_k, vecf32($vector)) YIELD node, score
WHERE (($as_of IS NULL AND node.status = 'active') OR ($as_of IS NOT NULL AND node.status IN ['active', 'superseded']
       AND node.canonical_id IS NULL AND node.valid_at <= $as_of AND (node.invalid_at IS NULL OR node.invalid_at > $as_of)))
  AND ($f_sessions IS NULL OR node.session_id IN $f_sessions)
  AND ($f_users IS NULL OR node.user_id IN $f_users)
  AND ($f_agents IS NULL OR node.agent_id IN $f_agents)
  AND ($f_speakers IS NULL OR node.speaker IN $f_speakers)
  AND ($f_kinds IS NULL OR node.kind IN $f_kinds)
  AND ($f_since IS NULL OR node.valid_at >= $f_since)
  AND ($f_until IS NULL OR node.valid_at < $f_until)
  AND ($f_meta IS NULL OR all(m IN $f_meta WHERE m IN node.meta_kv))
WITH node, score ORDER BY score ASC
WITH collect({node: node, distance: score}) AS found
UNWIND range(0, size(found) - 1) AS i
WITH found[i].node AS node, found[i].distance AS distance, i
RETURN CASE WHEN i < $full
         THEN node {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
                    .valid_at, .invalid_at, .metadata, .status, .key}
         ELSE node {.id, .valid_at, .speaker, .session_id} END AS a, distance
