-- Up to schema version 13 `consent-ledger verify` had the database compare every event's columns
-- with its record in one pass, ledger.first_column_problem(log), which parsed every record as
-- jsonb (5 µs an event). Since version 14 verify compares them itself from the record's bytes and
-- asks ledger.column_problems only about the events it cannot decide (decision 0043).
DROP FUNCTION IF EXISTS ledger.first_column_problem(text);
