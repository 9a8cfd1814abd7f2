-- Trigger function: the ledger's history tables are append-only. Fires before UPDATE, DELETE and
-- TRUNCATE, for every role including the owner (only disabling the trigger gets past it, and
-- `consent-ledger verify` catches what that lets through).
CREATE OR REPLACE FUNCTION ledger.reject_mutation() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE EXCEPTION USING
    ERRCODE = 'CL005',
    MESSAGE = format('ledger.%s is append-only: %s is not allowed', TG_TABLE_NAME, TG_OP),
    HINT = 'Events are never changed or removed. Record a correction as a new event '
        || '(for example OperatorDecision); personal data is erased by destroying the '
        || 'subject''s key, not by deleting events.';
END
$fn$;
