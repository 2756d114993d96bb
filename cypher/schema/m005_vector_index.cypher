// name: m005_vector_index
// mode: write
// params: dimension, ef_runtime
// HNSW cosine index on Artifact.embedding. efRuntime is fixed here (it cannot be set per query);
// the vector route also over-fetches, because the search runs with ef = max(efRuntime, k).
CREATE VECTOR INDEX FOR (a:Artifact) ON (a.embedding)
OPTIONS {dimension: $dimension, similarityFunction: 'cosine', M: 16, efConstruction: 200, efRuntime: $ef_runtime}
