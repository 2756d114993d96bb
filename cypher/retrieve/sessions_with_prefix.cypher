// name: sessions_with_prefix
// mode: read
// params: prefix
// Ids of the sessions whose id starts with $prefix (the LangGraph store's namespaces are the
// sessions named by a JSON array), sorted.
MATCH (s:Session)
WHERE s.id STARTS WITH $prefix
RETURN s.id AS id
ORDER BY id
