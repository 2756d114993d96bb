// name: count_all_artifacts
// mode: read
// params:
// Number of artifacts in any status: how many the vector index holds (the bound of a growing kNN fetch).
MATCH (a:Artifact)
RETURN count(a) AS n
