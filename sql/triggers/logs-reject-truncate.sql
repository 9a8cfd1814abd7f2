CREATE OR REPLACE TRIGGER logs_reject_truncate
  BEFORE TRUNCATE ON ledger.logs
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
