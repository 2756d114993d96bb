// name: read_entity_stamp
// mode: read
// params:
// The tenant's entity stamp: how many writes created memories (and so could add entities or
// mention counts), plus the erases that deleted entities or changed their mention counts
// (evolve/prune_entities, evolve/prune_orphans). A process compares it with the stamp its
// known-entity index was loaded at, on every search, and reloads the index when another process
// wrote or forgot.
MATCH (m:_Meta {id: 'meta'})
RETURN coalesce(m.entity_stamp, 0) AS stamp
