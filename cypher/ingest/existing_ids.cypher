// name: existing_ids
// mode: read
// params: ids
// Which of the given artifact ids already exist (writes skip them: add is idempotent per id).
UNWIND $ids AS id
MATCH (a:Artifact {id: id})
RETURN a.id AS id
