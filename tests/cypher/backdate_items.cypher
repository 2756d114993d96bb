// name: backdate_items
// mode: write
// params: ids, seconds
// Test support: move the given memories' created_at $seconds into the past (what a LangGraph
// store reports as updated_at), as LangGraph's Postgres tests backdate updated_at.
UNWIND $ids AS id
MATCH (a:Artifact {id: id})
SET a.created_at = a.created_at - $seconds
RETURN count(a) AS n
