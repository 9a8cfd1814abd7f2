-- Witnesses' cosignatures of signed checkpoints (C2SP tlog-cosignature, docs/proofs.md): one row
-- per checkpoint and witness key. line is the exact signature line served after the checkpoint's
-- own note ('— <witness name> <base64(key id || timestamp || signature)>' and a newline);
-- witness_key is the witness's verifier key that checked it; cosigned_at is the cosignature's
-- own timestamp (POSIX seconds), recorded_at when the ledger stored it. The ledger checks each
-- cosignature before storing it (the database has no Ed25519); every verifier checks it again.
-- Written only by ledger.record_cosignatures, never changed.
CREATE TABLE IF NOT EXISTS ledger.checkpoint_cosignatures (
  log_id        text        NOT NULL,
  tree_size     bigint      NOT NULL,
  witness_name  text        NOT NULL,
  key_id        bigint      NOT NULL CHECK (key_id BETWEEN 0 AND 4294967295),
  witness_key   text        NOT NULL,
  cosigned_at   bigint      NOT NULL CHECK (cosigned_at >= 0),
  line          text        NOT NULL,
  recorded_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (log_id, tree_size, witness_name, key_id),
  FOREIGN KEY (log_id, tree_size) REFERENCES ledger.checkpoints (log_id, tree_size)
);
COMMENT ON TABLE ledger.checkpoint_cosignatures IS 'Witnesses'' cosignatures (C2SP tlog-cosignature) of signed checkpoints';
