// name: id_counts
// mode: read
// params:
// Reliability tests: how many artifact nodes carry each id (a write applied twice shows as 2).
MATCH (a:Artifact)
RETURN a.id AS id, count(*) AS n
