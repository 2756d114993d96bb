// name: slow_scan
// mode: read
// params:
// Reliability tests: a read that takes seconds (a cartesian count), to show the server stops it.
MATCH (a:Artifact), (b:Artifact), (c:Artifact)
WHERE a.text < b.text OR b.text < c.text
RETURN count(*) AS n
