-- A log's head follows its newest event and only moves forward (see ledger.check_head_move).
CREATE OR REPLACE TRIGGER logs_check_head
  BEFORE INSERT OR UPDATE ON ledger.logs
  FOR EACH ROW EXECUTE FUNCTION ledger.check_head_move();
