CREATE OR REPLACE TRIGGER read_audit_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.read_audit
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
