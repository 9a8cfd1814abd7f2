-- ledger.check_log_id: raises CL007 unless p_log_id is a well-formed log id (1 to 63 characters
-- of a-z, 0-9, ".", "_" and "-", starting with a letter or digit). The one statement of the
-- rule for the functions that may create a log (append_events, subject_key); the CHECK on
-- ledger.logs.log_id states it for the table.
CREATE OR REPLACE FUNCTION ledger.check_log_id(p_log_id text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = ledger, pg_temp
AS $fn$
BEGIN
  IF p_log_id IS NULL OR p_log_id !~ '^[a-z0-9][a-z0-9._-]{0,62}$' THEN
    RAISE EXCEPTION USING ERRCODE = 'CL007',
      MESSAGE = format('invalid log id %L', p_log_id),
      HINT = 'A log id is 1 to 63 characters of a-z, 0-9, ".", "_" and "-", starting with a letter or digit.';
  END IF;
END
$fn$;
