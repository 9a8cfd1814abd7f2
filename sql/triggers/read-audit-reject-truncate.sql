CREATE OR REPLACE TRIGGER read_audit_reject_truncate
  BEFORE TRUNCATE ON ledger.read_audit
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
