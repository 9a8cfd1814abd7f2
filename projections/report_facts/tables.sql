-- report_facts: one row per event, holding the facts the regulator report counts, each taken from
-- that event alone or from events before it (by position). No row changes after the fold that wrote
-- it, so the rows at positions up to P are exactly the rows a fold up to P writes: a report as of P reads the live
-- table filtered by position, with no time travel (decision 0013).
CREATE TABLE facts (
  log_id        text        NOT NULL,
  position      bigint      NOT NULL,
  event_id      uuid        NOT NULL,
  type          text        NOT NULL,
  occurred_at   timestamptz NOT NULL,   -- the device clock: periods are cut on it
  subject       text,
  bundle_id     text,                   -- the envelope's app; ConsentRescinded: payload bundleId
  jurisdiction  text,                   -- the envelope's jurisdiction code; NULL when none was given
  environment   text,                   -- the envelope's app.environment; NULL when not said
  ref           text,                   -- questionId, exceptionId or changeId
  trigger       text,                   -- AgeRangeRequested: trigger
  category      text,                   -- AgeRangeShared, PlayAgeSignalReceived: derived legalCategory
  declaration   text,                   -- AgeRangeShared: ageRangeDeclaration ('none' when absent)
  play_status   text,                   -- PlayAgeSignalReceived: userStatus
  check_method  text,                   -- AgeVerificationCompleted: method (the app's own gate or a third party)
  check_outcome text,                   -- AgeVerificationCompleted: outcome (passed, failed, inconclusive)
  error         text,                   -- AgeRangeRequestFailed, PermissionQuestionFailed: the error
  answer        text,                   -- ParentalAnswerReceived: approval / denial; AgeExceptionDecided: approved / declined
  channel       text,                   -- answers and decisions: message / inPerson; questions: sentVia
  answered_at   timestamptz,            -- ParentalAnswerReceived receivedAt, AgeExceptionDecided decidedAt
  change_id     text,                   -- PermissionQuestionSent: the change asked about (its changeId, or the
                                        -- change declared for the app before it with the same description)
  rated_age     text,                   -- AgeExceptionRequested: derived ratingLabel
  gate_state    text,                   -- AccessGateApplied: open / closed
  version       text,                   -- SignificantChangeDeclared: introducedInVersion
  description   text,                   -- SignificantChangeDeclared: the description shown to parents
  PRIMARY KEY (log_id, position)
);
-- Its indexes serve the reports only (no fold reads facts): indexes.sql.
