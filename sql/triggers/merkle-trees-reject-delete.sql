CREATE OR REPLACE TRIGGER merkle_trees_reject_delete
  BEFORE DELETE ON ledger.merkle_trees
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
