-- API keys of the HTTP API (consent-ledger serve): each bound to one log (tenant) and one role.
-- Only the SHA-256 of a key's secret is stored; the key itself (cl_<key_id>_<secret>) is shown
-- once, when created. A revoked key keeps its row (revoked_at set) so that it is never reissued.
CREATE TABLE IF NOT EXISTS ledger.api_keys (
  key_id       text        PRIMARY KEY CHECK (key_id ~ '^[a-z0-9]{12}$'),
  secret_hash  bytea       NOT NULL CHECK (length(secret_hash) = 32),
  log_id       text        NOT NULL CHECK (log_id ~ '^[a-z0-9][a-z0-9._-]{0,62}$'),
  role         text        NOT NULL CHECK (role IN ('ingest', 'auditor', 'admin')),
  label        text        NOT NULL DEFAULT '' CHECK (length(label) <= 200),
  created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  revoked_at   timestamptz
);
COMMENT ON TABLE ledger.api_keys IS 'HTTP API keys: SHA-256 of the secret, the log and role each is bound to';
