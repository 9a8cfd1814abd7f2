-- Every change to a stored API key (a revocation above all) is announced to servers that cache keys.
CREATE OR REPLACE TRIGGER api_keys_notify_change
  AFTER UPDATE OR DELETE ON ledger.api_keys
  FOR EACH ROW EXECUTE FUNCTION ledger.notify_api_key_change();
