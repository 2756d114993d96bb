// name: link_duplicates
// mode: write
// params: pairs, now
// Links near-duplicates under their canonical memory: (dup)-[:DUPLICATE_OF {similarity}]->(canonical),
// dup.canonical_id set and status superseded (kept as provenance; search shows the canonical).
UNWIND $pairs AS p
MATCH (d:Artifact {id: p.dup})
MATCH (c:Artifact {id: p.canonical})
WHERE d.status = 'active' AND c.status = 'active' AND d <> c
SET d.status = 'superseded', d.canonical_id = c.id
MERGE (d)-[l:DUPLICATE_OF]->(c)
ON CREATE SET l.similarity = p.similarity, l.created_at = $now
RETURN count(d) AS linked
