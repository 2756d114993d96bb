// name: next_edges
// mode: read
// params:
// Test support: every NEXT edge (turn order) as (src id, dst id), and each session's last memory.
OPTIONAL MATCH (x:Artifact)-[:NEXT]->(y:Artifact)
WITH collect([x.id, y.id]) AS edges
OPTIONAL MATCH (s:Session)
RETURN edges, collect([s.id, s.last]) AS lasts
