// name: m004_session_index
// mode: write
// params:
// Range index on Session.id.
CREATE INDEX FOR (s:Session) ON (s.id)
