// name: m017_user_index
// mode: write
// params:
// Range index on User.id: the write path MERGEs users by id (every MERGE key is indexed, so a
// tenant with many users does not scan them on each write).
CREATE INDEX FOR (u:User) ON (u.id)
