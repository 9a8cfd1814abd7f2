CREATE OR REPLACE TRIGGER checkpoints_reject_truncate
  BEFORE TRUNCATE ON ledger.checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
