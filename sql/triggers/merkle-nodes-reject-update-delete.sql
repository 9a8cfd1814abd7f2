CREATE OR REPLACE TRIGGER merkle_nodes_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.merkle_nodes
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
