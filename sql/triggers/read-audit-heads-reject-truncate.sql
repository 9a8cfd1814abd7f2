CREATE OR REPLACE TRIGGER read_audit_heads_reject_truncate
  BEFORE TRUNCATE ON ledger.read_audit_heads
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
