-- ledger.open_console_session: records a console session for an API key the caller has just
-- authenticated (the HTTP API, as the application role, which may not write tables itself), for
-- p_lifetime from now; returns when it expires. ledger.end_console_session: ends a session at
-- sign-out (true if it was open). Neither can revive a session or change its key.
CREATE OR REPLACE FUNCTION ledger.open_console_session(p_hash bytea, p_key_id text, p_lifetime interval, p_client text)
RETURNS timestamptz
LANGUAGE sql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
  INSERT INTO ledger.console_sessions (session_hash, key_id, client, expires_at)
  SELECT p_hash, key_id, left(p_client, 200), clock_timestamp() + p_lifetime
    FROM ledger.api_keys WHERE key_id = p_key_id AND revoked_at IS NULL
  RETURNING expires_at;
$fn$;

CREATE OR REPLACE FUNCTION ledger.end_console_session(p_hash bytea)
RETURNS boolean
LANGUAGE sql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
  WITH ended AS (
    UPDATE ledger.console_sessions SET ended_at = clock_timestamp()
     WHERE session_hash = p_hash AND ended_at IS NULL
    RETURNING 1
  )
  SELECT count(*) > 0 FROM ended;
$fn$;
