-- anomalies: well-formed but surprising facts (the events are stored all the same: losing a
-- surprising report would lose evidence), and the violations of the rules REPORTS.md lists, each
-- citing the event it was found on and the event it relates to.
CREATE TABLE findings (
  log_id            text    NOT NULL,
  position          bigint  NOT NULL,   -- the event the finding is about
  kind              text    NOT NULL,
  event_id          uuid    NOT NULL,
  subject           text,
  source            text    NOT NULL CHECK (source IN ('catalogue', 'rule')),
  detail            text    NOT NULL,
  related_position  bigint,             -- the earlier event it conflicts with, if any
  PRIMARY KEY (log_id, position, kind)
);
CREATE INDEX findings_subject ON findings (log_id, subject);
-- Catalogue kinds (EVENTS.md names them; source 'catalogue'):
--   answer-without-question        a ParentalAnswerReceived with no PermissionQuestionSent for its question before it
--   answer-after-expiry            a ParentalAnswerReceived that occurred after its question's expirationDate
--   exception-decided-twice        an AgeExceptionDecided for an exception already decided
--   decision-without-request       an AgeExceptionDecided with no AgeExceptionRequested before it
--   access-opened-without-basis    an AccessGateApplied that opened a feature citing no event
-- Rule kinds (REPORTS.md's violations; source 'rule'):
--   access-without-approval        an AccessGateApplied opened a feature to a minor whose parents must
--                                  approve significant changes, in an app with a significant change in
--                                  force (the latest one declared for the app, introduced in or before
--                                  the gate's app version), and no approval of that change is on record
--                                  for the subject (an approving answer to a question about it, named by
--                                  changeId or by the change's exact description, or on
--                                  Android a SUPERVISED Play signal after the change), or the approval
--                                  was rescinded since.
--   answer-after-question-expired  a ParentalAnswerReceived after the QuestionExpired of its question.
--   rescission-not-enforced        (view violations) a ConsentRescinded with no AccessGateApplied
--                                  closing a feature of that app for the subject within 24 hours.

-- What the rules look up, kept as the events arrive (each row cites its position, and the rules
-- only ever look at rows before the event they judge).
CREATE TABLE age_signals (
  log_id             text    NOT NULL,
  subject            text    NOT NULL,
  position           bigint  NOT NULL,
  category           text,
  approval_required  boolean NOT NULL,  -- significantAppChangeApprovalRequired on, or Play SUPERVISED*
  PRIMARY KEY (log_id, subject, position)
);
CREATE TABLE changes (
  log_id       text      NOT NULL,
  change_id    text      NOT NULL,
  bundle_id    text,
  version_key  integer[],
  position     bigint    NOT NULL,
  PRIMARY KEY (log_id, change_id)
);
CREATE INDEX changes_app ON changes (log_id, bundle_id, position);
CREATE TABLE questions (
  log_id            text   NOT NULL,
  question_id       text   NOT NULL,
  subject           text,
  change_id         text,
  expires_at        timestamptz,   -- its expirationDate
  position          bigint NOT NULL,
  expired_position  bigint,
  PRIMARY KEY (log_id, question_id)
);
CREATE TABLE exceptions (
  log_id              text   NOT NULL,
  exception_id        text   NOT NULL,
  requested_position  bigint,   -- the first AgeExceptionRequested
  decided_position    bigint,   -- the first AgeExceptionDecided
  PRIMARY KEY (log_id, exception_id)
);
CREATE TABLE approvals (
  log_id     text   NOT NULL,
  subject    text   NOT NULL,
  position   bigint NOT NULL,
  bundle_id  text,
  change_id  text,   -- NULL for a Play approval, which is for whatever change is pending
  PRIMARY KEY (log_id, subject, position)
);
CREATE TABLE rescissions (
  log_id             text        NOT NULL,
  position           bigint      NOT NULL,
  event_id           uuid        NOT NULL,
  subject            text        NOT NULL,
  bundle_id          text,
  rescinded_at       timestamptz NOT NULL,
  enforcement_action text,        -- what the app said it did
  enforced_position  bigint,      -- the first AccessGateApplied closing a feature of the app after it
  enforced_event_id  uuid,
  enforced_at        timestamptz,
  PRIMARY KEY (log_id, position)
);
CREATE INDEX rescissions_subject ON rescissions (log_id, subject, position);

-- The rescissions with their enforcement delay, against the policy window of 24 hours.
CREATE VIEW rescission_enforcement AS
SELECT log_id, position, event_id, subject, bundle_id, rescinded_at, enforcement_action,
       enforced_position, enforced_event_id, enforced_at, enforced_at - rescinded_at AS delay,
       rescinded_at + interval '24 hours' AS deadline,
       CASE WHEN enforced_at IS NULL THEN 'not enforced'
            WHEN enforced_at - rescinded_at > interval '24 hours' THEN 'late'
            ELSE 'in time' END AS outcome
  FROM rescissions;

-- The rule violations, each with its evidence: the rule findings, and the rescissions not enforced
-- within the window (or not at all, once the window has passed).
CREATE VIEW violations AS
SELECT log_id, position, kind, event_id, subject, detail, related_position
  FROM findings WHERE source = 'rule'
UNION ALL
SELECT log_id, position, 'rescission-not-enforced', event_id, subject,
       CASE WHEN enforced_at IS NULL THEN 'no AccessGateApplied closed access after the rescission'
            ELSE format('access was closed %s after the rescission, beyond the 24-hour window', enforced_at - rescinded_at) END,
       enforced_position
  FROM rescissions
 WHERE (enforced_at IS NULL AND rescinded_at + interval '24 hours' < clock_timestamp())
    OR enforced_at - rescinded_at > interval '24 hours';
