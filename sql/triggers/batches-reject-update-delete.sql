-- The idempotency record is history too: a batch once seen stays seen.
CREATE OR REPLACE TRIGGER batches_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.batches
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
