CREATE OR REPLACE TRIGGER read_audit_heads_check
  BEFORE INSERT OR UPDATE OR DELETE ON ledger.read_audit_heads
  FOR EACH ROW EXECUTE FUNCTION ledger.check_read_audit_head();
