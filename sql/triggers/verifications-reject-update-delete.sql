CREATE OR REPLACE TRIGGER verifications_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.verifications
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
