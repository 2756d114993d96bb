// name: m018_agent_index
// mode: write
// params:
// Range index on Agent.id: the write path MERGEs agents by id (every MERGE key is indexed).
CREATE INDEX FOR (g:Agent) ON (g.id)
