// name: export_agents
// mode: read
// params: after, limit
// Export: one page of Agent nodes (every property), keyset-paged by id.
MATCH (n:Agent)
WHERE n.id > $after
RETURN n.id AS id, properties(n) AS props
ORDER BY id
LIMIT $limit
