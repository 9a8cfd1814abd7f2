-- The retention run: records p_event, a RetentionApplied (as consent-ledger retention builds it),
-- and when its scope is subjectKeys destroys the key of every subject its payload.subjectIds names
-- (as ledger.erase_subject does), in one transaction. The one way a RetentionApplied is stored
-- (decision 0056): ledger.append_events refuses it. Only the owner may call it (no grant to the
-- application role). Returns the event's position, as ledger.append_events returns it.
CREATE OR REPLACE FUNCTION ledger.apply_retention(p_log_id text, p_event text, p_idempotency_key text DEFAULT NULL)
RETURNS TABLE ("position" bigint, event_id uuid, stream text, stream_version bigint, idempotent_replay boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_doc jsonb;
BEGIN
  RETURN QUERY SELECT * FROM ledger.append_events_through('ledger.apply_retention', p_log_id, ARRAY[p_event], NULL,
                                                          p_idempotency_key, NULL);
  -- The event passed the catalogue: its payload is well-formed.
  v_doc := p_event::jsonb;
  IF v_doc #>> '{payload,scope}' = 'subjectKeys' THEN
    PERFORM ledger.destroy_subject_keys(p_log_id, ARRAY(
      SELECT jsonb_array_elements_text(coalesce(v_doc #> '{payload,subjectIds}', '[]'::jsonb))));
  END IF;
END
$fn$;
