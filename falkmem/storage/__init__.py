"""Storage: the only package that talks to FalkorDB (connection, Cypher files, executor, schema)."""
