// name: count_edge_types
// mode: read
// params:
// Number of edges per relationship type (stats, and the export's check that it knows every type).
MATCH ()-[r]->()
RETURN type(r) AS type, count(r) AS n
