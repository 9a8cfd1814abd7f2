-- ledger.record_batch: records that the batch stored at p_first_position (p_event_count events,
-- the ledger's clock p_at) came under idempotency key p_idempotency_key with digest p_digest (the
-- sha256 of its events, one per line), so that the same key is answered from ledger.replayed_batch.
-- ledger.record_batches calls it for a batch key; the owner's bulk load (decision 0042), which
-- copies its events and has no array of them, calls it directly. PL/pgSQL, so that its insert is
-- planned once per session.
CREATE OR REPLACE FUNCTION ledger.record_batch(p_log_id text, p_idempotency_key text, p_first_position bigint,
                                               p_event_count bigint, p_digest bytea, p_at timestamptz)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO ledger.batches (log_id, idempotency_key, first_position, event_count, request_digest, appended_at)
  VALUES (p_log_id, p_idempotency_key, p_first_position, p_event_count, p_digest, p_at);
END
$fn$;
