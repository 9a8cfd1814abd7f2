CREATE OR REPLACE TRIGGER checkpoint_cosignatures_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.checkpoint_cosignatures
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
