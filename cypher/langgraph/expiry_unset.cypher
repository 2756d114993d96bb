// name: expiry_unset
// mode: read
// params: marker, limit
// LangGraph store items written with a TTL ($marker in meta_kv) whose expiry node is missing
// (the process stopped between writing the item and set_expiry): the sweep reads their expiry
// from their metadata and sets it.
MATCH (a:Artifact)
WHERE $marker IN a.meta_kv AND NOT (a)-[:LG_EXPIRES]->(:LgExpiry)
RETURN a.id AS id, a.metadata AS metadata
LIMIT $limit
