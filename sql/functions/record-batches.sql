-- ledger.record_batches: records the idempotency of a batch just stored at p_first_position: under
-- p_idempotency_key with the batch's digest p_digest (sha256 of its events, one per line), or, with
-- p_event_keys, each event as a batch of one under its own key, with the digest a call of that
-- event alone would have stored. Nothing when neither is given. A batch key's row is
-- ledger.record_batch's, as the bulk load records it. PL/pgSQL, so that its insert is planned once
-- per session.
CREATE OR REPLACE FUNCTION ledger.record_batches(p_log_id text, p_first_position bigint, p_events text[],
                                                 p_idempotency_key text, p_digest bytea, p_event_keys text[],
                                                 p_at timestamptz)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    PERFORM ledger.record_batch(p_log_id, p_idempotency_key, p_first_position, cardinality(p_events), p_digest, p_at);
  ELSIF p_event_keys IS NOT NULL THEN
    INSERT INTO ledger.batches (log_id, idempotency_key, first_position, event_count, request_digest, appended_at)
    SELECT p_log_id, p_event_keys[k.ord], p_first_position + k.ord - 1, 1, sha256(convert_to(k.body, 'UTF8')), p_at
      FROM unnest(p_events) WITH ORDINALITY AS k(body, ord);
  END IF;
END
$fn$;
