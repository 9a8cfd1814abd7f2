-- Crypto-shredding: destroys a subject's key, so every personal-data field ever stored for them
-- becomes unreadable while the events, and so the hash chain, stay as they were. The caller
-- appends the SubjectErased event in the same transaction (consent-ledger erase does).
-- Returns true when this call erased the subject (destroying a key, or barring one from being
-- made), false when the subject was already erased.
CREATE OR REPLACE FUNCTION ledger.erase_subject(p_log_id text, p_subject text)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
BEGIN
  INSERT INTO ledger.logs (log_id) VALUES (p_log_id) ON CONFLICT DO NOTHING;
  -- Record the erasure even for a subject that never had personal data, so a later append of
  -- personal data for them is refused too.
  INSERT INTO ledger.subject_keys (log_id, subject, key, destroyed_at)
  VALUES (p_log_id, p_subject, NULL, clock_timestamp())
  ON CONFLICT (log_id, subject) DO UPDATE
     SET key = NULL, destroyed_at = clock_timestamp()
   WHERE ledger.subject_keys.key IS NOT NULL;
  RETURN FOUND;
END
$fn$;
