CREATE OR REPLACE TRIGGER merkle_nodes_reject_truncate
  BEFORE TRUNCATE ON ledger.merkle_nodes
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_mutation();
