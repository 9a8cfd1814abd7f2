-- A log is never removed (its events would be orphaned: events has no foreign key to logs, the
-- insert trigger checks the log exists instead). Heads move only by UPDATE from the events
-- trigger (logs-check-head.sql refuses any other move).
CREATE OR REPLACE TRIGGER logs_reject_delete
  BEFORE DELETE ON ledger.logs
  FOR EACH ROW EXECUTE FUNCTION ledger.reject_mutation();
