-- Diagnosis for ledger.append_events, used only after a batch failed to parse: names the first
-- event that is not valid JSON or whose occurredAt is not a timestamp PostgreSQL accepts.
-- Slow on purpose (a subtransaction per event); never on the success path.
CREATE OR REPLACE FUNCTION ledger.first_unparsable_event(p_events text[])
RETURNS TABLE (ord bigint, problem text)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_doc jsonb;
  v_ts  timestamptz;
BEGIN
  FOR i IN 1 .. coalesce(cardinality(p_events), 0) LOOP
    BEGIN
      v_doc := p_events[i]::jsonb;
    EXCEPTION WHEN OTHERS THEN
      ord := i; problem := 'not valid JSON (' || SQLERRM || ')';
      RETURN NEXT; RETURN;
    END;
    BEGIN
      v_ts := (v_doc->>'occurredAt')::timestamptz;
    EXCEPTION WHEN OTHERS THEN
      ord := i; problem := format('occurredAt %L is not a valid timestamp (%s)', v_doc->>'occurredAt', SQLERRM);
      RETURN NEXT; RETURN;
    END;
  END LOOP;
END
$fn$;
