// name: b015_link_titles
// mode: write
// params: rows, now
// Migration 15: links each titled artifact to the entity of its whole title ($rows: [{id, key,
// name}]), in its head, as the write path does for new memories since (ingest/create_artifacts:
// REFERENCES.head). The entity is MERGEd by key as on write; a link that exists is made a head
// link and not counted again, so a step interrupted half-way and run again changes nothing more.
UNWIND $rows AS r
MATCH (a:Artifact {id: r.id})
MERGE (e:Entity {key: r.key})
ON CREATE SET e.name = r.name, e.type = 'other', e.mentions = 0, e.aliases = [], e.created_at = $now
WITH a, e
OPTIONAL MATCH (a)-[old:REFERENCES]->(e)
FOREACH (x IN CASE WHEN old IS NULL THEN [] ELSE [old] END | SET x.head = true)
FOREACH (x IN CASE WHEN old IS NULL THEN [1] ELSE [] END |
  CREATE (a)-[:REFERENCES {head: true}]->(e)
  SET e.mentions = e.mentions + 1)
RETURN count(*) AS linked
