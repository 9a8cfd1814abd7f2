CREATE OR REPLACE TRIGGER batches_reject_truncate
  BEFORE TRUNCATE ON ledger.batches
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
