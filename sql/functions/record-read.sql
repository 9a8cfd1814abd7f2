-- ledger.record_read: appends one read of a subject's data to ledger.read_audit, chained to the
-- log's previous read (one at a time per log: a transaction-scoped advisory lock). The caller
-- records before it answers, so a read that cannot be recorded is not answered. Returns the seq.
CREATE OR REPLACE FUNCTION ledger.record_read(
  p_log_id text, p_channel text, p_reader text, p_what text, p_subject text, p_detail text, p_client text
) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_seq    bigint;
  v_chain  bytea;
  v_at     timestamptz := clock_timestamp();
  v_record text;
BEGIN
  PERFORM 1 FROM ledger.logs WHERE log_id = p_log_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL008', MESSAGE = format('there is no log %L', p_log_id),
      HINT = 'List the logs with consent-ledger logs.';
  END IF;
  -- Who read is taken from the database, not the caller's word (issue 36, finding 7): only the
  -- HTTP server, which authenticates the API key or console session it names, connects as the
  -- application role and may record reads of the api and console channels; any other role records
  -- a cli read, under its own login role, the operating-system user it names kept as its claim.
  IF p_channel IN ('api', 'console') AND NOT pg_has_role(session_user, 'consent_ledger_app', 'MEMBER') THEN
    RAISE EXCEPTION USING ERRCODE = '42501',
      MESSAGE = format('the database role %s may not record %s reads: only the HTTP server does, as consent_ledger_app', session_user, p_channel),
      HINT = 'Record a read made from the command line with channel cli.';
  END IF;
  IF p_subject IS DISTINCT FROM '*' AND (p_subject IS NULL OR length(p_subject) NOT BETWEEN 1 AND 128 OR p_subject !~ '^[A-Za-z0-9._:-]+$') THEN
    RAISE EXCEPTION USING ERRCODE = '22023',
      MESSAGE = format('%s is not a subject: a subject is a pseudonym of 1 to 128 characters of A-Z, a-z, 0-9, dot, underscore, colon and hyphen', left(p_subject, 40)),
      HINT = 'Give the subject''s pseudonym as the events name it.';
  END IF;
  IF p_channel = 'cli' THEN
    p_reader := format('cli/%s (OS user %s)', session_user, coalesce(nullif(regexp_replace(p_reader, '^cli/', ''), ''), 'unknown'));
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('ledger.read_audit:' || p_log_id, 0));
  -- From the head (ledger.read_audit_heads), not the newest row: reads deleted behind the
  -- triggers' back leave a gap that `verify` names, and recording goes on.
  SELECT seq, chain_hash INTO v_seq, v_chain FROM ledger.read_audit_heads WHERE log_id = p_log_id;
  v_seq := coalesce(v_seq, 0) + 1;
  v_chain := coalesce(v_chain, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
  v_record := jsonb_build_object(
    'log', p_log_id, 'seq', v_seq, 'readAt', to_char(v_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'channel', p_channel, 'reader', p_reader, 'what', p_what, 'subject', p_subject, 'detail', left(p_detail, 500),
    'client', left(p_client, 200))::text;
  INSERT INTO ledger.read_audit (log_id, seq, read_at, channel, reader, what, subject, detail, client, record, chain_hash)
  VALUES (p_log_id, v_seq, v_at, p_channel, p_reader, p_what, p_subject, left(p_detail, 500), left(p_client, 200), v_record,
          sha256(v_chain || sha256(convert_to(v_record, 'UTF8'))))
  RETURNING chain_hash INTO v_chain;
  INSERT INTO ledger.read_audit_heads (log_id, seq, chain_hash) VALUES (p_log_id, v_seq, v_chain)
  ON CONFLICT (log_id) DO UPDATE SET seq = EXCLUDED.seq, chain_hash = EXCLUDED.chain_hash;
  RETURN v_seq;
END
$fn$;
