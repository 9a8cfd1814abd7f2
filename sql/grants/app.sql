-- The application role: reads, and appends only through ledger.append_events (which runs with
-- the owner's rights). No INSERT, UPDATE, DELETE or TRUNCATE on any table, no access to
-- ledger.subject_keys.
GRANT USAGE ON SCHEMA ledger TO consent_ledger_app;
GRANT SELECT ON ledger.logs, ledger.events, ledger.event_days, ledger.batches, ledger.schema_version
  TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.append_events(text, text[], text[], text, text[]) TO consent_ledger_app;
-- Subject keys: the application may get (or create) a key to seal personal data, never read the
-- key table or destroy a key (only the owner erases: ledger.erase_subject).
GRANT EXECUTE ON FUNCTION ledger.subject_key(text, text, bytea) TO consent_ledger_app;
-- Helpers the projections' SQL calls (pure functions).
GRANT EXECUTE ON FUNCTION ledger.upcast_age_range_shared_v1(jsonb), ledger.version_key(text), ledger.is_age_signal(text, jsonb),
  ledger.question_outcome(text, boolean, boolean)
  TO consent_ledger_app;
-- The verifiable log: read the tree and the checkpoints; extend the tree (idempotent, derived
-- only from stored leaf hashes). Recording a checkpoint is the owner's (it needs the signing key).
-- The HTTP API stores witnesses' cosignatures, which it has checked (POST …/checkpoint/cosignatures).
GRANT SELECT ON ledger.merkle_trees, ledger.merkle_nodes, ledger.checkpoints, ledger.checkpoint_cosignatures TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.extend_merkle_tree(text, bigint) TO consent_ledger_app;
-- A checkpoint signed by serve's --checkpoint-every: record_checkpoint refuses anything but the
-- log's own tree and chain hash, so the application role can record no false one (decision 0070).
GRANT EXECUTE ON FUNCTION ledger.record_checkpoint(text, bigint, bytea, bytea, text, text, bigint, text, text)
  TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.record_cosignatures(text, bigint, text[], bigint[], text[], bigint[], text[]) TO consent_ledger_app;
-- The HTTP API authenticates requests with the application role: it reads the key table (only
-- hashes of secrets are stored there); keys are created and revoked by the owner.
GRANT SELECT ON ledger.api_keys TO consent_ledger_app;
-- Every read of a subject's data is recorded before it is answered (the HTTP API and the console).
GRANT SELECT ON ledger.read_audit, ledger.read_audit_heads TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.record_read(text, text, text, text, text, text, text) TO consent_ledger_app;
-- The console exchanges a key for a session (a hash of its secret and an expiry) and ends it.
GRANT SELECT ON ledger.console_sessions TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.open_console_session(bytea, text, interval, text), ledger.end_console_session(bytea)
  TO consent_ledger_app;
-- Verifying a log (LogVerifier) compares every event's columns with its record.
GRANT EXECUTE ON FUNCTION ledger.column_problems(text, bigint[]),
  ledger.event_column_problem(text, bigint, uuid, text, bigint, text, integer, timestamptz, timestamptz,
                              text, text, text, text, text, jsonb)
  TO consent_ledger_app;
-- Verifications are recorded by whoever runs them, and read by the console's overview.
GRANT SELECT ON ledger.verifications TO consent_ledger_app;
GRANT EXECUTE ON FUNCTION ledger.record_verification(text, text, boolean, bigint, bigint, text, text) TO consent_ledger_app;
