-- The key that encrypts a subject's personal-data fields: the stored one, or p_candidate stored as
-- the subject's key when there is none yet (the client generates it, so no extension is needed).
-- Returns NULL when the subject was erased: no new personal data may be recorded for them.
-- Creates the log's row when the log is new: call it in the transaction of the append it seals
-- for (EventStore.append does), so that a refused batch leaves neither log nor key behind.
CREATE OR REPLACE FUNCTION ledger.subject_key(p_log_id text, p_subject text, p_candidate bytea)
RETURNS bytea
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_key bytea;
  v_destroyed timestamptz;
BEGIN
  SELECT k.key, k.destroyed_at INTO v_key, v_destroyed
    FROM ledger.subject_keys k WHERE k.log_id = p_log_id AND k.subject = p_subject;
  IF FOUND THEN
    RETURN v_key;
  END IF;
  IF length(p_candidate) IS DISTINCT FROM 32 THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = 'a subject key must be 32 bytes';
  END IF;
  PERFORM ledger.check_log_id(p_log_id);
  INSERT INTO ledger.logs (log_id) VALUES (p_log_id) ON CONFLICT DO NOTHING;
  INSERT INTO ledger.subject_keys (log_id, subject, key) VALUES (p_log_id, p_subject, p_candidate)
    ON CONFLICT DO NOTHING;
  SELECT k.key INTO v_key FROM ledger.subject_keys k WHERE k.log_id = p_log_id AND k.subject = p_subject;
  RETURN v_key;
END
$fn$;
