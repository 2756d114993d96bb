// name: entity_names
// mode: read
// params:
// Every entity key and name of the tenant (loaded once into the in-process known-entity index),
// and how many memories name it (the router counts only entities the graph can follow).
MATCH (e:Entity)
RETURN e.key AS key, e.name AS name, e.mentions AS mentions
