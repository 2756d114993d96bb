// name: title_links
// mode: read
// params: key
// Test support: the memories linked to the entity $key, whether in their head, and its mention count.
MATCH (a:Artifact)-[r:REFERENCES]->(e:Entity {key: $key})
RETURN a.id AS id, r.head AS head, e.mentions AS mentions ORDER BY a.id
