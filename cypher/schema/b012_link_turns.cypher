// name: b012_link_turns
// mode: write
// params: session, ids
// Migration 12: links one session's memories in turn order ($ids, from b012_session_turns),
// (a)-[:NEXT]->(b) for each consecutive pair, and records its last memory (Session.last), as the
// write path does for new memories (ingest/create_artifacts). MERGE: a step interrupted half-way
// and run again creates no second edge.
MATCH (s:Session {id: $session})
SET s.last = $ids[size($ids) - 1]
WITH s
UNWIND range(0, size($ids) - 2) AS k
MATCH (x:Artifact {id: $ids[k]})
MATCH (y:Artifact {id: $ids[k + 1]})
MERGE (x)-[:NEXT]->(y)
RETURN count(*) AS linked
