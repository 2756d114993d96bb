// name: expired
// mode: read
// params: now, limit
// Memory ids of LangGraph store items that expired at or before $now (epoch seconds): what the
// TTL sweep deletes.
MATCH (a:Artifact)-[:LG_EXPIRES]->(e:LgExpiry)
WHERE e.at <= $now
RETURN a.id AS id
LIMIT $limit
