// name: count_artifact_kinds
// mode: read
// params:
// Number of artifacts per (kind, status), and how many carry an embedding.
MATCH (a:Artifact)
RETURN a.kind AS kind, a.status AS status, count(a) AS n, count(a.embedding) AS vectors
