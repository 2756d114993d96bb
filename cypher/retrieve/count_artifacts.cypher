// name: count_artifacts
// mode: read
// params:
// Number of active artifacts.
MATCH (a:Artifact)
WHERE a.status = 'active'
RETURN count(a) AS n
