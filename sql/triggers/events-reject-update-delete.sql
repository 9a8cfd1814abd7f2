CREATE OR REPLACE TRIGGER events_reject_update_delete
  BEFORE UPDATE OR DELETE ON ledger.events
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
