// name: count_labels
// mode: read
// params:
// Number of nodes per label (stats, and the export's check that it knows every label), from the
// graph's own counters: a scan of every node took 0.5 s at 500,000 memories, this under 1 ms.
// Labels without a node (left after deletes) are not listed. Every node has one label.
CALL db.meta.stats() YIELD labels
UNWIND keys(labels) AS label
WITH label, labels[label] AS n
WHERE n > 0
RETURN label, n
