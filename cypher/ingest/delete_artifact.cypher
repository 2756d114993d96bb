// name: delete_artifact
// mode: write
// params: id
// Deletes one artifact and its edges; entities it alone referenced lose a mention.
MATCH (a:Artifact {id: $id})
OPTIONAL MATCH (a)-[:REFERENCES]->(e:Entity)
SET e.mentions = e.mentions - 1
WITH DISTINCT a
DETACH DELETE a
RETURN count(a) AS deleted
