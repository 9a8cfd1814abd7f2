-- consent_register: "who approved what and when". One row per PermissionKit question and per
-- MarketplaceKit age-rating exception, with its whole lifecycle and the events it rests on.
CREATE TABLE entries (
  log_id                 text        NOT NULL,
  kind                   text        NOT NULL CHECK (kind IN ('question', 'exception')),
  item_id                text        NOT NULL,   -- questionId, or exceptionId
  subject                text,
  bundle_id              text,                   -- the app that asked (for exceptions: the marketplace)
  topic                  text,                   -- significantAppUpdate, communication, custom:<name>, ageRatingException
  change_id              text,                   -- the significant change a question asks about (its changeId, or the
                                                 -- change declared for the app before it with the same description)
  rated_app              bigint,                 -- exceptions: the appleItemID asked for
  rated_age              text,                   -- exceptions: its age rating (4+ ... 18+, unrated)
  asked_at               timestamptz,            -- occurred-at of PermissionQuestionSent / AgeExceptionRequested
  asked_position         bigint,
  asked_event_id         uuid,
  sent_via               text,                   -- askCenter, permissionButton, askToApprove, approveInPerson, acknowledgmentAlert
  expires_at             timestamptz,
  answer                 text CHECK (answer IN ('approval', 'denial')),  -- the first answer (exceptions: approved = approval)
  answer_channel         text,                   -- message, inPerson
  answered_at            timestamptz,            -- receivedAt / decidedAt as the app reported it
  answered_position      bigint,
  answered_event_id      uuid,
  answered_by            text,                   -- the guardian's pseudonym; NULL: not disclosed by the platform
  guardian_authenticated boolean,                -- exceptions approved in person
  answers_received       integer     NOT NULL DEFAULT 0,  -- more than one: a later answer, see anomalies
  expired_at             timestamptz,
  expired_position       bigint,
  expired_event_id       uuid,
  failed_error           text,                   -- PermissionQuestionFailed's error: never reached a parent
  failed_position        bigint,
  failed_event_id        uuid,
  failed_at              timestamptz,            -- occurred-at of that PermissionQuestionFailed
  rescinded_at           timestamptz,            -- an approval withdrawn later (App Store RESCIND_CONSENT)
  rescinded_position     bigint,
  rescinded_event_id     uuid,
  status                 text GENERATED ALWAYS AS (
                           CASE WHEN rescinded_position IS NOT NULL THEN 'rescinded'
                                ELSE ledger.question_outcome(answer, expired_position IS NOT NULL,
                                                             failed_position IS NOT NULL) END) STORED,
  time_to_answer         interval GENERATED ALWAYS AS (answered_at - asked_at) STORED,
  evidence_positions     bigint[] GENERATED ALWAYS AS (array_remove(ARRAY[asked_position, failed_position,
                           answered_position, expired_position, rescinded_position], NULL)) STORED,
  evidence_event_ids     uuid[] GENERATED ALWAYS AS (array_remove(ARRAY[asked_event_id, failed_event_id,
                           answered_event_id, expired_event_id, rescinded_event_id], NULL)) STORED,
  PRIMARY KEY (log_id, kind, item_id)
);
CREATE INDEX entries_subject ON entries (log_id, subject);
