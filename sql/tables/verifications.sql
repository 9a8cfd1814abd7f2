-- Verifications of each log (`consent-ledger verify`, the console's "Verify now"): when, by whom,
-- how far (scope full or since-checkpoint), whether it passed and what it found first. The
-- console's overview shows the newest. Append-only; written only by ledger.record_verification.
CREATE TABLE IF NOT EXISTS ledger.verifications (
  log_id          text        NOT NULL,
  verified_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  scope           text        NOT NULL CHECK (scope IN ('full', 'since-checkpoint', 'projections')),
  passed          boolean     NOT NULL,
  events_checked  bigint      NOT NULL CHECK (events_checked >= 0),
  head_position   bigint      NOT NULL,
  summary         text        NOT NULL,
  verified_by     text        NOT NULL
);
CREATE INDEX IF NOT EXISTS verifications_log ON ledger.verifications (log_id, verified_at);
COMMENT ON TABLE ledger.verifications IS 'Each verification of a log: when, by whom, how far, and its result';
