CREATE OR REPLACE TRIGGER merkle_trees_reject_truncate
  BEFORE TRUNCATE ON ledger.merkle_trees
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
