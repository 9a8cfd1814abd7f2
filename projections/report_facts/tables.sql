-- report_facts: one row per event, holding the facts the regulator report counts, each taken from
-- that event alone or from events before it (by position). No row of facts or install_days changes
-- after the fold that wrote it, and a block of period_counts stops changing once the log is past
-- it, so what a report as of P reads (rows at positions up to P, blocks that end at or below P) is
-- exactly what a fold up to P writes: it reads the live tables, with no time travel (decision 0013).
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
  ref           text,                   -- questionId, exceptionId or changeId; WithdrawalDelivered: the
                                        -- rescission's event id (its ConsentRescinded)
  trigger       text,                   -- AgeRangeRequested: trigger
  category      text,                   -- AgeRangeShared, PlayAgeSignalReceived: derived legalCategory
  declaration   text,                   -- AgeRangeShared: ageRangeDeclaration ('none' when absent)
  play_status   text,                   -- PlayAgeSignalReceived: userStatus
  check_method  text,                   -- AgeVerificationCompleted: method (the app's own gate or a third party)
  outcome       text,                   -- AgeRangeShared: activeParentalControls, sorted, comma-separated, or none;
                                        -- AgeVerificationCompleted: outcome (passed, failed, inconclusive);
                                        -- EligibilityChecked: eligible, notEligible or the error;
                                        -- InstallAttempted: its outcome; DeviceRatingLimitObserved: the
                                        -- limit's label or noLimit; StoreConsentStatusReceived: the status
  error         text,                   -- AgeRangeRequestFailed, PermissionQuestionFailed: the error
  answer        text,                   -- ParentalAnswerReceived: approval / denial; AgeExceptionDecided: approved / declined;
                                        -- ConsentRescinded: withdrawn when it withdraws consent (production, signature valid)
  channel       text,                   -- answers and decisions: message / inPerson; questions: sentVia;
                                        -- SignificantChangeNotifiedToStore: the store notified
  answered_at   timestamptz,            -- ParentalAnswerReceived receivedAt, AgeExceptionDecided decidedAt,
                                        -- WithdrawalDelivered deliveredAt (when the app was told)
  change_id     text,                   -- PermissionQuestionSent: the change asked about (its changeId, or the
                                        -- change declared for the app before it with the same description)
  rated_age     text,                   -- AgeExceptionRequested: derived ratingLabel
  gate_state    text,                   -- AccessGateApplied: open / closed
  version       text,                   -- SignificantChangeDeclared: introducedInVersion
  description   text,                   -- SignificantChangeDeclared: the description shown to parents
  PRIMARY KEY (log_id, position)
);
-- Its indexes serve the reports only (no fold reads facts): indexes.sql.
-- The regulator report's counts, kept as the facts are folded, so that a period is read in
-- thousands of rows rather than millions (decision 0045). One row per block of 10,000 positions
-- (block = (position - 1) / 10000; report-facts' fold.sql and reports/regulator/period-counts.sql
-- both use that number), UTC day of occurred_at and combination of the columns the report counts
-- by, with how many facts rows have them and the first position among those. A report as of
-- position P adds up the blocks that end at or below P over the whole days of its period, and
-- counts the rest (the positions after the last whole block, the hours of a period that starts or
-- ends within a day) from facts itself. A block's rows change only while the log is inside it.
CREATE TABLE period_counts (
  log_id          text   NOT NULL,
  block           bigint NOT NULL,
  day             date   NOT NULL,
  jurisdiction    text,
  environment     text,
  type            text   NOT NULL,
  trigger         text,
  category        text,
  declaration     text,
  play_status     text,
  error           text,
  check_method    text,
  outcome         text,
  events          bigint NOT NULL,
  first_position  bigint NOT NULL,
  UNIQUE NULLS NOT DISTINCT (log_id, day, block, jurisdiction, environment, type, trigger, category, declaration,
                             play_status, error, check_method, outcome)
);
-- Coverage's installs: each (subject, app) with a facts row of a jurisdiction on a UTC day, and
-- the first position among those rows. An install was active on a whole day of the period as of
-- position P when its row for that day has first_position <= P. No row changes once written.
CREATE TABLE install_days (
  log_id          text   NOT NULL,
  jurisdiction    text   NOT NULL,
  day             date   NOT NULL,
  subject         text   NOT NULL,
  bundle_id       text   NOT NULL,
  first_position  bigint NOT NULL,
  PRIMARY KEY (log_id, jurisdiction, day, subject, bundle_id)
);
