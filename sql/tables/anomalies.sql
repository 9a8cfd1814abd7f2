-- Facts that were well-formed but surprising, marked when they were appended (the events
-- themselves are stored regardless: the ledger records what was reported, and losing a surprising
-- report would lose evidence). Derived data, outside the hash chain: it can always be recomputed
-- from the events. Projections and reports read it.
--   answer-without-question   a ParentalAnswerReceived on a question stream with no PermissionQuestionSent
--   answer-after-expiry       a ParentalAnswerReceived after its question's expirationDate
--   exception-decided-twice   an AgeExceptionDecided on an exception stream already decided
--   decision-without-request  an AgeExceptionDecided on an exception stream with no AgeExceptionRequested
--   access-opened-without-basis  an AccessGateApplied that opened a feature citing no event
CREATE TABLE IF NOT EXISTS ledger.anomalies (
  log_id            text    NOT NULL REFERENCES ledger.logs (log_id),
  position          bigint  NOT NULL,
  kind              text    NOT NULL,
  detail            text    NOT NULL,
  related_position  bigint,
  PRIMARY KEY (log_id, position, kind)
);
COMMENT ON TABLE ledger.anomalies IS 'Well-formed but surprising events, marked at append (derived, outside the chain)';
