-- Sessions of the auditor's console (`serve`, /console; docs/console.md): an auditor or admin API
-- key exchanged for a session cookie, so the key itself never stays in the browser. Only the
-- SHA-256 of the session's secret is stored. A session ends at expires_at, when its key is revoked
-- (checked on every request), or at sign-out (ended_at). Written only through
-- ledger.open_console_session and ledger.end_console_session.
CREATE TABLE IF NOT EXISTS ledger.console_sessions (
  session_hash  bytea       PRIMARY KEY CHECK (length(session_hash) = 32),
  key_id        text        NOT NULL REFERENCES ledger.api_keys (key_id),
  client        text        NOT NULL DEFAULT '' CHECK (length(client) <= 200),
  created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  expires_at    timestamptz NOT NULL,
  ended_at      timestamptz
);
COMMENT ON TABLE ledger.console_sessions IS 'Console sessions: SHA-256 of each session secret, the API key it stands for, its expiry';
