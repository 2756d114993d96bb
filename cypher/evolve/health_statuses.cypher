// name: health_statuses
// mode: read
// params:
// Number of memories per status, for health().
MATCH (a:Artifact)
RETURN a.status AS status, count(a) AS n
