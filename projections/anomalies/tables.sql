-- anomalies: well-formed but surprising facts (the events are stored all the same: losing a
-- surprising report would lose evidence), and the violations of the ledger's rules, each citing
-- the event it was found on and every event it rests on.
CREATE TABLE findings (
  log_id     text      NOT NULL,
  position   bigint    NOT NULL,   -- the event the finding is about
  kind       text      NOT NULL,   -- the rule's id in the rules catalogue (docs/rules.md)
  event_id   uuid      NOT NULL,
  subject    text,
  source     text      NOT NULL CHECK (source IN ('catalogue', 'rule')),
  detail     text      NOT NULL,
  evidence   bigint[]  NOT NULL,   -- every event the finding rests on, in log order, the judged one included
  needs_review text,               -- the fact it was judged without, conservatively (decision 0064); NULL: none
  PRIMARY KEY (log_id, position, kind)
);
-- The kinds, their statements and their legal or platform basis are the rules catalogue's
-- (Sources/LedgerCore/Rules/RuleCatalogue.swift, written out as docs/rules.md). Source 'rule': a
-- violation a regulator report lists; source 'catalogue': a surprising fact, kept as evidence.

-- What the rules look up, kept as the events arrive (each row cites its position, and the rules
-- only ever look at rows before the event they judge).
-- The age signals: AgeRangeShared, PlayAgeSignalReceived, and AgeVerificationCompleted that passed.
CREATE TABLE age_signals (
  log_id             text    NOT NULL,
  subject            text    NOT NULL,
  position           bigint  NOT NULL,
  occurred_at        timestamptz NOT NULL,
  category           text,
  verified_adult     boolean NOT NULL,  -- the ledger's derived verifiedAdult
  approval_required  boolean NOT NULL,  -- significantAppChangeApprovalRequired on, or Play SUPERVISED*
  event_id           uuid    NOT NULL,  -- what an AccessGateApplied's basis cites (signal-disregarded)
  PRIMARY KEY (log_id, subject, position)
);
CREATE INDEX age_signals_event ON age_signals (log_id, event_id);
-- The person declined to share an age range (AgeRangeDeclined): after the latest age signal, the
-- app has none to act on (access-without-age-signal).
CREATE TABLE declines (
  log_id    text    NOT NULL,
  subject   text    NOT NULL,
  position  bigint  NOT NULL,
  PRIMARY KEY (log_id, subject, position)
);
-- Each opening of a feature (AccessGateApplied, state open) with the subject's latest age signal
-- before it and how long before the opening that signal occurred (occurredAt to occurredAt, in
-- seconds). age-signal-expired compares it with the policy's re-check interval: the regulator
-- report and explain judge it, since the interval is the policy's.
CREATE TABLE signal_ages (
  log_id           text    NOT NULL,
  position         bigint  NOT NULL,   -- the opening
  subject          text    NOT NULL,
  signal_position  bigint  NOT NULL,
  age_seconds      bigint  NOT NULL,
  PRIMARY KEY (log_id, position)
);
-- Each opening of a feature the rules judged, with every fact they judged it on (the `gates` of
-- fold.sql): `explain` shows this row, so what it says of an opening is what the findings rest on.
CREATE TABLE openings (
  log_id                      text     NOT NULL,
  position                    bigint   NOT NULL,   -- the opening (AccessGateApplied, state open)
  subject                     text     NOT NULL,
  age_position                bigint,              -- the latest age signal before it
  category                    text,
  verified_adult              boolean,
  controls_require_approval   boolean,             -- that signal's parental controls required approval of changes
  requirement_position        bigint,              -- the latest EligibilityChecked for the subject and app
  consent_required            boolean  NOT NULL,   -- eligible, and significantAppChangeRequiresParentalConsent
  notification_required       boolean  NOT NULL,   -- eligible, and significantAppChangeRequiresAdultNotification
  change_id                   text,                -- the app's significant change in force
  change_position             bigint,
  word                        text,                -- the parent's latest word on that change (approval, denial)
  word_position               bigint,
  withdrawal_position         bigint,              -- a withdrawal of consent for the app still standing (rescissions)
  needs_review                text,                -- the fact the rules lacked (the version first used), when one was
  acknowledgment_position     bigint,              -- the subject's acknowledgment of the change
  PRIMARY KEY (log_id, position)
);
-- What DeclaredAgeRange told the app it must do for the subject (EligibilityChecked that succeeded):
-- the latest row before an event is the requirement in force for that subject and app.
CREATE TABLE requirements (
  log_id              text    NOT NULL,
  subject             text    NOT NULL,
  bundle_id           text    NOT NULL,   -- '' when the event named no app
  position            bigint  NOT NULL,
  eligible            boolean NOT NULL,   -- isEligibleForAgeFeatures
  parental_consent    boolean NOT NULL,   -- significantAppChangeRequiresParentalConsent
  adult_notification  boolean NOT NULL,   -- significantAppChangeRequiresAdultNotification
  PRIMARY KEY (log_id, subject, bundle_id, position)
);
-- The first event of each subject with each app (among the types this projection reads), and the
-- first original app version the app reported for them (app.originalAppVersion, or an
-- acknowledgment's originalAppVersion): the version the subject first used the app at. A change
-- introduced in or before that version was part of the app when the subject got it (Apple's sample
-- compares AppTransaction.originalAppVersion the same way), so it is no change for them. Without
-- it, a change is judged in force and a finding resting on it needs review when the ledger first
-- saw the subject at a version that already had it (decision 0064).
CREATE TABLE first_seen (
  log_id       text      NOT NULL,
  subject      text      NOT NULL,
  bundle_id    text      NOT NULL,
  position     bigint    NOT NULL,
  version_key  integer[],
  original_version_key integer[],
  original_position    bigint,
  PRIMARY KEY (log_id, subject, bundle_id)
);
CREATE TABLE changes (
  log_id       text        NOT NULL,
  change_id    text        NOT NULL,
  bundle_id    text,
  version_key  integer[],
  description  text,
  occurred_at  timestamptz NOT NULL,
  position     bigint      NOT NULL,   -- its first declaration
  PRIMARY KEY (log_id, change_id)
);
CREATE INDEX changes_app ON changes (log_id, bundle_id, position);
CREATE TABLE questions (
  log_id            text   NOT NULL,
  question_id       text   NOT NULL,
  subject           text,
  change_id         text,
  expires_at        timestamptz,   -- its expirationDate
  occurred_at       timestamptz NOT NULL,
  position          bigint NOT NULL,
  expired_position  bigint,
  PRIMARY KEY (log_id, question_id)
);
CREATE TABLE exceptions (
  log_id              text   NOT NULL,
  exception_id        text   NOT NULL,
  subject             text,     -- of the first AgeExceptionRequested
  apple_item_id       bigint,   -- the app it is for (the request's appleItemID)
  requested_position  bigint,   -- the first AgeExceptionRequested
  decided_position    bigint,   -- the first AgeExceptionDecided
  approved_position   bigint,   -- the first AgeExceptionDecided that approved it
  PRIMARY KEY (log_id, exception_id)
);
CREATE INDEX exceptions_app ON exceptions (log_id, subject, apple_item_id);
-- Acknowledgments of significant changes, and whether each holds: the change was declared before
-- it, a marking through originalAppVersion names a version that already includes the change, and
-- it is no `notRequired` marking (which says no acknowledgment was needed, not that one was made).
CREATE TABLE acknowledgments (
  log_id      text    NOT NULL,
  subject     text    NOT NULL,
  position    bigint  NOT NULL,
  change_id   text    NOT NULL,
  handled_by  text    NOT NULL,
  holds       boolean NOT NULL,
  PRIMARY KEY (log_id, subject, position)
);
-- A parent's word on a significant change: an answer to a question about it, or on Android a Play
-- signal (SUPERVISED: approved; SUPERVISED_APPROVAL_DENIED: denied).
CREATE TABLE answers (
  log_id     text   NOT NULL,
  subject    text   NOT NULL,
  position   bigint NOT NULL,
  bundle_id  text,
  change_id  text,   -- NULL for a Play signal, which is about whatever change is pending
  answer     text   NOT NULL CHECK (answer IN ('approval', 'denial')),
  PRIMARY KEY (log_id, subject, position)
);
-- The withdrawals of consent: App Store RESCIND_CONSENT notifications from the production
-- environment whose signature verified (ConsentRescinded.withdrawsConsent, decision 0062); others
-- withdraw nothing and are not here.
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
  apple_item_id      bigint,      -- the notification's appAppleId: the app an age-rating exception names
  reapproved_position bigint,     -- the first approval for the app after it (an answer or an exception)
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
SELECT log_id, position, kind, event_id, subject, detail, evidence
  FROM findings WHERE source = 'rule'
UNION ALL
SELECT log_id, position, 'rescission-not-enforced', event_id, subject,
       CASE WHEN enforced_at IS NULL THEN 'no AccessGateApplied closed access after the rescission'
            ELSE format('access was closed %s after the rescission, beyond the 24-hour window', enforced_at - rescinded_at) END,
       CASE WHEN enforced_position IS NULL THEN ARRAY[position] ELSE ARRAY[position, enforced_position] END
  FROM rescissions
 WHERE (enforced_at IS NULL AND rescinded_at + interval '24 hours' < clock_timestamp())
    OR enforced_at - rescinded_at > interval '24 hours';
