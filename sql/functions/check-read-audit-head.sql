-- ledger.check_read_audit_head: the head of a log's record of reads only moves forward, to the
-- row just recorded (the next sequence number, with that row's chain hash); it is never deleted.
CREATE OR REPLACE FUNCTION ledger.check_read_audit_head() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION USING ERRCODE = 'CL005',
      MESSAGE = 'ledger.read_audit_heads is append-only: DELETE is not allowed';
  END IF;
  IF NOT EXISTS (SELECT FROM ledger.read_audit r
                  WHERE r.log_id = NEW.log_id AND r.seq = NEW.seq AND r.chain_hash = NEW.chain_hash)
     OR (TG_OP = 'UPDATE' AND NEW.seq <> OLD.seq + 1)
     OR (TG_OP = 'INSERT' AND NEW.seq <> 1 AND EXISTS (SELECT FROM ledger.read_audit r WHERE r.log_id = NEW.log_id AND r.seq > NEW.seq)) THEN
    RAISE EXCEPTION USING ERRCODE = 'CL005',
      MESSAGE = format('the head of the record of reads of log %L may only move forward to the read just recorded', NEW.log_id);
  END IF;
  RETURN NEW;
END
$fn$;
