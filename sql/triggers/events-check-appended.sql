CREATE OR REPLACE TRIGGER events_check_appended
  AFTER INSERT ON ledger.events
  REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION ledger.check_appended_events();
