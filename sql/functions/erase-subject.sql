-- Crypto-shredding: destroys a subject's key, so every personal-data field ever stored for them
-- becomes unreadable while the events, and so the hash chain, stay as they were, and records the
-- erasure, p_event (a SubjectErased about p_subject, as consent-ledger erase builds it), in the same
-- transaction. The one way a SubjectErased is stored (decision 0056): ledger.append_events refuses it.
-- Only the owner may call it (no grant to the application role).
-- Returns the erasure's position (as ledger.append_events returns), or no row when the subject was
-- already erased (nothing is recorded then).
CREATE OR REPLACE FUNCTION ledger.erase_subject(p_log_id text, p_subject text, p_event text, p_idempotency_key text DEFAULT NULL)
RETURNS TABLE ("position" bigint, event_id uuid, stream text, stream_version bigint, idempotent_replay boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_doc jsonb;
BEGIN
  BEGIN
    v_doc := p_event::jsonb;
  EXCEPTION WHEN data_exception THEN
    v_doc := NULL; -- ledger.append_events_through names the problem
  END;
  IF jsonb_typeof(v_doc) = 'object' AND v_doc->>'type' = 'SubjectErased'
     AND (v_doc->>'subject' IS DISTINCT FROM p_subject OR v_doc #>> '{payload,subjectId}' IS DISTINCT FROM p_subject) THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('the erasure of subject %s must be a SubjectErased about it, in subject and payload.subjectId', p_subject),
      HINT = 'consent-ledger erase builds the event; nothing was erased.';
  END IF;
  INSERT INTO ledger.logs (log_id) VALUES (p_log_id) ON CONFLICT DO NOTHING;
  -- Recorded even for a subject that never had personal data, so a later append of personal data
  -- for them is refused too; nothing more when the subject was already erased.
  IF ledger.destroy_subject_keys(p_log_id, ARRAY[p_subject]) = 0 THEN
    RETURN;
  END IF;
  RETURN QUERY SELECT * FROM ledger.append_events_through('ledger.erase_subject', p_log_id, ARRAY[p_event], NULL,
                                                          p_idempotency_key, NULL);
END
$fn$;
