// name: item_ids
// mode: read
// params: scope
// Ids of the active memories whose meta_kv holds every pair of $scope: the items a filtered
// vector-ranked search may return.
MATCH (a:Artifact)
WHERE a.status = 'active' AND all(m IN $scope WHERE m IN a.meta_kv)
RETURN a.id AS id
