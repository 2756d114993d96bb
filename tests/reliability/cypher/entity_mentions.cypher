// name: entity_mentions
// mode: read
// params:
// Reliability tests: each entity's mention count against the memories that link to it.
MATCH (e:Entity)
OPTIONAL MATCH (a:Artifact)-[:REFERENCES]->(e)
RETURN e.key AS key, e.mentions AS mentions, count(a) AS refs
