// name: b014_clear_terms
// mode: write
// params: limit
// Migration 14 (a backfill, falkmem/storage/backfill.py): deletes up to $limit of the tenant's
// document-frequency nodes, so a recount (or a step interrupted half-way and run again) starts
// from none.
MATCH (t:_Term)
WITH t LIMIT $limit
DELETE t
RETURN count(*) AS deleted
