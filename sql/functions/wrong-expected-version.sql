-- ledger.raise_wrong_expected_version: the CL001 error of an event whose expected version its
-- stream does not meet, in the one wording every append path gives: event p_ord of the batch
-- expected stream p_stream at p_expected ('noStream' or a version), and p_version is the version
-- the event would have had (so the stream is at p_version - 1).
CREATE OR REPLACE FUNCTION ledger.raise_wrong_expected_version(p_ord bigint, p_stream text, p_expected text, p_version bigint)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CL001',
    MESSAGE = format('Wrong expected version: event %s of the batch expected stream %s %s, but it is %s',
                     p_ord, p_stream,
                     CASE WHEN p_expected = 'noStream' THEN 'not to exist' ELSE 'to be at version ' || p_expected END,
                     CASE WHEN p_version = 1 THEN 'empty' ELSE 'at version ' || (p_version - 1) END),
    DETAIL = format('batch_index=%s stream=%s current_version=%s', p_ord, p_stream, p_version - 1),
    HINT = 'Another writer appended to the stream first. Read the stream, decide again, and retry with the new version.';
END
$fn$;
