// name: set_schema_version
// mode: write
// params: version, now
// Records that migrations up to `version` have been applied.
MATCH (m:_Meta {id: 'meta'})
SET m.schema_version = $version, m.migrated_at = $now
RETURN m.schema_version AS schema_version
