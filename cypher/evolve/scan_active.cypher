// name: scan_active
// mode: read
// params: limit
// Active memories without a fact key, with their embeddings, oldest first, for the bounded
// near-duplicate scan (keyed facts are reconciled by their key instead).
MATCH (a:Artifact)
WHERE a.status = 'active' AND a.key IS NULL
RETURN a.id AS id, a.text AS text, a.embedding AS embedding, a.valid_at AS valid_at,
       a.created_at AS created_at
ORDER BY a.valid_at ASC, a.created_at ASC, a.id ASC
LIMIT $limit
