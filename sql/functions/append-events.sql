-- ledger.append_events: the way in for every role but the ledger's own writer (psql, any client,
-- consent_ledger_app). Appends a batch to a log atomically and returns each event's position and
-- stream version. It is not the only way in: the writer calls ledger.append_checked_events
-- (decision 0072), the owner's bulk load copies into ledger.events (decision 0042), and the
-- ledger's Swift code names each of its ways in (AppendMode, decision 0074). The one gate is the
-- statement trigger on ledger.events (ledger.check_appended_events), which every way in passes.
--
--   p_log_id             the log (tenant); created on first append.
--   p_events             the events, each one JSON object as text (RFC 8785 canonical when it
--                        comes from the Swift client), each valid against the event catalogue
--                        (docs/events.md; checked here by the functions in sql/generated/):
--                        envelope, payload, no birth date or exact age, no duplicate key,
--                        personal-data fields sealed. `derived` may be omitted: the ledger computes
--                        it and adds it; when present it must equal what the ledger computes.
--   p_expected_versions  NULL, or one entry per event: 'any', 'noStream', or N (the stream's
--                        version just before this event). A mismatch raises CL001.
--   p_idempotency_key    NULL, or a key: a batch retried with a key already seen returns the
--                        original positions (idempotent_replay = true) and writes nothing; the
--                        same key with different events raises CL002.
--   p_event_keys         NULL, or one key per event instead of p_idempotency_key: each event is
--                        recorded as if it had been appended alone under its key (so a retry of
--                        one of them alone, with its key, is answered with its position), and all
--                        are appended together. When any key was already used in the log, CL002
--                        and nothing is stored: send that event alone with its key to get its
--                        original answer. The HTTP API's group commit sends concurrent
--                        single-event requests that carry an Idempotency-Key this way
--                        (decision 0041).
--
-- From psql:
--   SELECT * FROM ledger.append_events('acme', ARRAY['{"actor":{"kind":"app"},"eventId":"...",...}']);
--
-- Who may append each type is the catalogue's (docs/events.md, decision 0056): this function stores
-- what the ordinary writers and the verified App Store notifications may append. The ledger's own
-- facts (SubjectErased, RetentionApplied) are refused here (CL010): they come only through their
-- operations, ledger.erase_subject and ledger.apply_retention, which only the owner may run.
--
-- Errors (SQLSTATE): CL001 wrong expected version, CL002 idempotency key reused for a different
-- batch (or a per-event key already used), CL003 event id already stored, CL004 invalid event,
-- CL007 invalid log id, CL010 an event this function may not store. Nothing of a refused batch is
-- stored. The work is ledger.append_events_through's (sql/functions/append-events-through.sql).
CREATE OR REPLACE FUNCTION ledger.append_events(
  p_log_id            text,
  p_events            text[],
  p_expected_versions text[] DEFAULT NULL,
  p_idempotency_key   text   DEFAULT NULL,
  p_event_keys        text[] DEFAULT NULL
) RETURNS TABLE ("position" bigint, event_id uuid, stream text, stream_version bigint,
                 idempotent_replay boolean)
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
BEGIN
  RETURN QUERY SELECT * FROM ledger.append_events_through('ledger.append_events', p_log_id, p_events, p_expected_versions,
                                                          p_idempotency_key, p_event_keys);
END
$fn$;
