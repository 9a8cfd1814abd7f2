-- Up to schema version 11 ledger.append_events took four arguments; since version 12 it takes a
-- fifth, p_event_keys (decision 0040). CREATE OR REPLACE with another argument list would add an
-- overload beside the old one (and make every call ambiguous), so the old one goes first.
DROP FUNCTION IF EXISTS ledger.append_events(text, text[], text[], text);
