// name: health_counts
// mode: read
// params:
// Graph totals for health(): entities, orphan entities, RELATED_TO edges, nodes and edges.
CALL {
  OPTIONAL MATCH (e:Entity)
  RETURN count(e) AS entities,
         sum(CASE WHEN e IS NOT NULL AND indegree(e, 'REFERENCES') = 0 THEN 1 ELSE 0 END) AS orphans,
         sum(CASE WHEN e IS NULL THEN 0 ELSE outdegree(e, 'RELATED_TO') END) AS related
}
CALL {
  OPTIONAL MATCH (n)
  RETURN count(n) AS nodes, sum(CASE WHEN n IS NULL THEN 0 ELSE outdegree(n) END) AS edges
}
RETURN entities, orphans, related, nodes, edges
