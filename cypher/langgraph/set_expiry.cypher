// name: set_expiry
// mode: write
// params: rows
// Sets when LangGraph store items expire: $rows = [{id, at}] (memory id, epoch seconds). The
// time is kept on a small node linked from the item's memory, (a)-[:LG_EXPIRES]->(:LgExpiry
// {at}), not on the memory: setting a property of an Artifact re-inserts it into the vector and
// full-text indexes (about 1 ms a memory; docs/langgraph.md), and a read that refreshes TTLs
// would pay that for every item it returns. Ids with no memory are skipped.
UNWIND $rows AS r
MATCH (a:Artifact {id: r.id})
MERGE (a)-[:LG_EXPIRES]->(e:LgExpiry)
SET e.at = r.at
RETURN a.id AS id, e.at AS at
