// name: prune_expiry
// mode: write
// params: limit
// Deletes expiry nodes whose memory was deleted (by another path than the store's: forget,
// retention); returns how many.
MATCH (e:LgExpiry)
WHERE NOT ()-[:LG_EXPIRES]->(e)
WITH e LIMIT $limit
DELETE e
RETURN count(e) AS n
