CREATE OR REPLACE TRIGGER events_reject_truncate
  BEFORE TRUNCATE ON ledger.events
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
