// name: b014_add_terms
// mode: write
// params: rows
// Migration 14: adds document frequencies counted in Python ($rows: [{stem, df}]) to the
// tenant's _Term nodes, creating the missing ones; what ingest/create_artifacts maintains for
// new memories and evolve/forget_artifacts for erased ones.
UNWIND $rows AS r
MERGE (t:_Term {stem: r.stem})
ON CREATE SET t.df = 0
SET t.df = t.df + r.df
RETURN count(t) AS terms
