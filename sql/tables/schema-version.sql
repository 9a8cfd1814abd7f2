-- The version of the ledger schema applied to this database, one row per migration run.
-- The migrator refuses a database whose highest version is newer than the one it knows.
CREATE TABLE IF NOT EXISTS ledger.schema_version (
  version     integer     NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  applied_by  text        NOT NULL DEFAULT current_user,
  software    text        NOT NULL
);
COMMENT ON TABLE ledger.schema_version IS 'Ledger schema versions applied to this database (the highest one is in force)';
