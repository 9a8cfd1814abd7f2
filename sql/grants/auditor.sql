-- The auditor role: reads everything in the ledger, changes nothing.
GRANT USAGE ON SCHEMA ledger TO consent_ledger_auditor;
GRANT SELECT ON ledger.logs, ledger.events, ledger.event_days, ledger.batches, ledger.schema_version
  TO consent_ledger_auditor;
-- Helpers the projections' SQL calls (pure functions), so an auditor can time-travel.
GRANT EXECUTE ON FUNCTION ledger.upcast_age_range_shared_v1(jsonb), ledger.version_key(text), ledger.is_age_signal(text, jsonb),
  ledger.question_outcome(text, boolean, boolean)
  TO consent_ledger_auditor;
-- The verifiable log: the tree and the checkpoints, to prove inclusion and consistency.
GRANT SELECT ON ledger.merkle_trees, ledger.merkle_nodes, ledger.checkpoints, ledger.checkpoint_cosignatures TO consent_ledger_auditor;
-- consent-ledger verify compares every event's columns with its record.
GRANT EXECUTE ON FUNCTION ledger.column_problems(text, bigint[]),
  ledger.event_column_problem(text, bigint, uuid, text, bigint, text, integer, timestamptz, timestamptz,
                              text, text, text, text, text, jsonb)
  TO consent_ledger_auditor;
-- Who read a subject's data: the auditor reads the record of reads (ledger.read_audit); reads made
-- as the auditor (the CLI's state, replay, explain and reports) record themselves through it.
GRANT SELECT ON ledger.read_audit, ledger.read_audit_heads TO consent_ledger_auditor;
GRANT EXECUTE ON FUNCTION ledger.record_read(text, text, text, text, text, text, text) TO consent_ledger_auditor;
-- Verifications are read by the console's overview and the reports. The auditor records none:
-- `verify` and "Verify now" record theirs as the application role, the ledger's own writer (schema
-- 19 took back the grant that let an auditor's psql store a "passed" it never ran: issue 36).
GRANT SELECT ON ledger.verifications TO consent_ledger_auditor;
REVOKE EXECUTE ON FUNCTION ledger.record_verification(text, text, boolean, bigint, bigint, text, text) FROM consent_ledger_auditor;
