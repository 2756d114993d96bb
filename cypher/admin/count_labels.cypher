// name: count_labels
// mode: read
// params:
// Number of nodes per label (stats, and the export's check that it knows every label).
MATCH (n)
RETURN labels(n)[0] AS label, count(n) AS n
