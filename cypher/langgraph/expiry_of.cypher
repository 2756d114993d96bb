// name: expiry_of
// mode: read
// params: ids
// When the LangGraph store items with these memory ids expire (set_expiry); ids without an
// expiry node are left out.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})-[:LG_EXPIRES]->(e:LgExpiry)
RETURN id, e.at AS at
