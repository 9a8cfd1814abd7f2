-- ledger.destroy_subject_keys: destroys the keys of p_subjects in p_log_id (crypto-shredding), and
-- records each as destroyed even when it never had a key, so that a later append of personal data
-- for it is refused too. Returns how many were destroyed now (a subject already erased is not
-- counted). The one statement erase_subject and apply_retention both run; owner only.
CREATE OR REPLACE FUNCTION ledger.destroy_subject_keys(p_log_id text, p_subjects text[])
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_destroyed bigint;
BEGIN
  INSERT INTO ledger.subject_keys (log_id, subject, key, destroyed_at)
  SELECT p_log_id, s.subject, NULL, clock_timestamp() FROM unnest(p_subjects) AS s(subject)
  ON CONFLICT (log_id, subject) DO UPDATE
     SET key = NULL, destroyed_at = clock_timestamp()
   WHERE ledger.subject_keys.key IS NOT NULL;
  GET DIAGNOSTICS v_destroyed = ROW_COUNT;
  RETURN v_destroyed;
END
$fn$;
