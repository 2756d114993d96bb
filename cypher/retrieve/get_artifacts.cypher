// name: get_artifacts
// mode: read
// params: ids
// Artifacts by id, in any status (projected; never the embedding).
UNWIND $ids AS id
MATCH (a:Artifact {id: id})
RETURN a {.id, .text, .kind, .session_id, .speaker, .agent_id, .user_id, .created_at,
          .valid_at, .invalid_at, .metadata, .status, .key} AS a
