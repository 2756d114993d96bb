// name: m003_artifact_lookup_indexes
// mode: write
// params:
// Range indexes for selection by session, user, agent, fact key and status.
CREATE INDEX FOR (a:Artifact) ON (a.session_id, a.user_id, a.agent_id, a.key, a.status)
