// name: drop_expiry
// mode: write
// params: ids
// Deletes the expiry nodes of these memories (before the memories themselves are deleted).
UNWIND $ids AS id
MATCH (a:Artifact {id: id})-[:LG_EXPIRES]->(e:LgExpiry)
DELETE e
RETURN count(e) AS n
