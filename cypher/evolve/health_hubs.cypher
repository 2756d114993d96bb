// name: health_hubs
// mode: read
// params: limit
// The entities with the most RELATED_TO edges (both directions): the hub guard's inputs.
MATCH (e:Entity)
WITH e, indegree(e, 'RELATED_TO') + outdegree(e, 'RELATED_TO') AS degree
ORDER BY degree DESC, e.key ASC
LIMIT $limit
RETURN e.key AS key, e.name AS name, degree, indegree(e, 'REFERENCES') AS references
