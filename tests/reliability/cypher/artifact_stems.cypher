// name: artifact_stems
// mode: read
// params:
// Reliability tests: every memory's stem counts and token count (to recount the keyword statistics).
MATCH (a:Artifact)
RETURN a.id AS id, a.stems AS stems, a.n_tokens AS n_tokens
