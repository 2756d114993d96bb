// name: health_counts
// mode: read
// params:
// Graph totals for health(): entities, orphan entities, RELATED_TO edges, nodes and edges. The
// totals come from the graph's own counters (a scan of every node and its degree took 5.4 s at
// 500,000 memories); the orphans are the entities no memory references (1.4 s there).
CALL db.meta.stats() YIELD nodeCount, relCount, labels, relTypes
CALL {
  OPTIONAL MATCH (e:Entity)
  WHERE NOT (e)<-[:REFERENCES]-()
  RETURN count(e) AS orphans
}
RETURN coalesce(labels['Entity'], 0) AS entities, orphans, coalesce(relTypes['RELATED_TO'], 0) AS related,
       nodeCount AS nodes, relCount AS edges
