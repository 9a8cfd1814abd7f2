CREATE OR REPLACE TRIGGER verifications_reject_truncate
  BEFORE TRUNCATE ON ledger.verifications
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
