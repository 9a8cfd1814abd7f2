CREATE OR REPLACE TRIGGER checkpoints_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.checkpoints
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
