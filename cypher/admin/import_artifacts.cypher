// name: import_artifacts
// mode: write
// params: rows
// Import: one batch of artifacts in one atomic query: every property, the embedding as a
// vecf32, and the artifact's REFERENCES, CONTAINS and PRODUCED links with their properties.
// The endpoints were imported before (the importer checks that they exist in the file).
UNWIND $rows AS r
CREATE (a:Artifact {id: r.id})
SET a += r.props,
    a.embedding = CASE WHEN r.embedding IS NULL THEN NULL ELSE vecf32(r.embedding) END
FOREACH (x IN r.references |
  MERGE (e:Entity {key: x.key})
  CREATE (a)-[rel:REFERENCES]->(e)
  SET rel += x.props)
FOREACH (x IN r.sessions |
  MERGE (s:Session {id: x.id})
  CREATE (s)-[rel:CONTAINS]->(a)
  SET rel += x.props)
FOREACH (x IN r.agents |
  MERGE (g:Agent {id: x.id})
  CREATE (g)-[rel:PRODUCED]->(a)
  SET rel += x.props)
RETURN count(a) AS created
