CREATE OR REPLACE TRIGGER checkpoint_cosignatures_reject_truncate
  BEFORE TRUNCATE ON ledger.checkpoint_cosignatures
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
