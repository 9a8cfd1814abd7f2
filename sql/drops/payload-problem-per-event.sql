-- Up to schema version 11 the payload check was one SQL function of one event, every type's check
-- inlined into append_events' statement and set up on every call. Since version 12
-- ledger.payload_problems checks a batch, one function per type the batch holds (decision 0040).
DROP FUNCTION IF EXISTS ledger.payload_problem(jsonb);
