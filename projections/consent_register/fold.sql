-- Folds fold_input into consent_register.entries. Each lifecycle step fills its own columns, the
-- first event of its kind per entry wins, and every cross-event condition compares positions, so
-- the rows do not depend on how the log was cut into ranges. Upserts create the entry whichever
-- event comes first (an answer to a question the ledger never saw still gets a row). A question's
-- topic and the change it asks about come resolved in fold_input (common/fill-fold-input.sql).

-- Asked: PermissionQuestionSent.
INSERT INTO entries AS e (log_id, kind, item_id, subject, bundle_id, topic, change_id, asked_at,
                          asked_position, asked_event_id, sent_via, expires_at)
SELECT DISTINCT ON (f.payload ->> 'questionId')
       f.log_id, 'question', f.payload ->> 'questionId', f.subject, f.bundle_id,
       f.topic, f.change_id,
       f.occurred_at, f.position, f.event_id, f.payload ->> 'sentVia',
       (f.payload ->> 'expirationDate')::timestamptz
  FROM fold_input f
 WHERE f.type = 'PermissionQuestionSent'
 ORDER BY f.payload ->> 'questionId', f.position
ON CONFLICT (log_id, kind, item_id) DO UPDATE
   SET subject = coalesce(e.subject, excluded.subject), bundle_id = coalesce(e.bundle_id, excluded.bundle_id),
       topic = excluded.topic, change_id = excluded.change_id, asked_at = excluded.asked_at,
       asked_position = excluded.asked_position, asked_event_id = excluded.asked_event_id,
       sent_via = excluded.sent_via, expires_at = excluded.expires_at
 WHERE e.asked_position IS NULL;

-- Asked: AgeExceptionRequested.
INSERT INTO entries AS e (log_id, kind, item_id, subject, bundle_id, topic, rated_app, rated_age,
                          asked_at, asked_position, asked_event_id)
SELECT DISTINCT ON (f.payload ->> 'exceptionId')
       f.log_id, 'exception', f.payload ->> 'exceptionId', f.subject, f.bundle_id, f.topic,
       (f.payload ->> 'appleItemID')::bigint, f.derived ->> 'ratingLabel', f.occurred_at, f.position, f.event_id
  FROM fold_input f
 WHERE f.type = 'AgeExceptionRequested'
 ORDER BY f.payload ->> 'exceptionId', f.position
ON CONFLICT (log_id, kind, item_id) DO UPDATE
   SET subject = coalesce(e.subject, excluded.subject), bundle_id = coalesce(e.bundle_id, excluded.bundle_id),
       topic = excluded.topic, rated_app = excluded.rated_app, rated_age = excluded.rated_age,
       asked_at = excluded.asked_at, asked_position = excluded.asked_position, asked_event_id = excluded.asked_event_id
 WHERE e.asked_position IS NULL;

-- Could not be asked: PermissionQuestionFailed.
INSERT INTO entries AS e (log_id, kind, item_id, subject, bundle_id, failed_error, failed_position, failed_event_id)
SELECT DISTINCT ON (f.payload ->> 'questionId')
       f.log_id, 'question', f.payload ->> 'questionId', f.subject, f.bundle_id, f.payload ->> 'error',
       f.position, f.event_id
  FROM fold_input f
 WHERE f.type = 'PermissionQuestionFailed'
 ORDER BY f.payload ->> 'questionId', f.position
ON CONFLICT (log_id, kind, item_id) DO UPDATE
   SET subject = coalesce(e.subject, excluded.subject), bundle_id = coalesce(e.bundle_id, excluded.bundle_id),
       failed_error = excluded.failed_error, failed_position = excluded.failed_position,
       failed_event_id = excluded.failed_event_id
 WHERE e.failed_position IS NULL;

-- Answered: the first ParentalAnswerReceived / AgeExceptionDecided; every answer is counted.
INSERT INTO entries AS e (log_id, kind, item_id, subject, bundle_id, answer, answer_channel, answered_at,
                          answered_position, answered_event_id, answered_by, guardian_authenticated,
                          answers_received)
SELECT DISTINCT ON (a.kind, a.item_id)
       a.log_id, a.kind, a.item_id, a.subject, a.bundle_id, a.answer, a.channel, a.answered_at,
       a.position, a.event_id, a.guardian, a.authenticated,
       count(*) OVER (PARTITION BY a.kind, a.item_id)
  FROM (SELECT f.log_id, f.position, f.event_id, f.subject, f.bundle_id,
               CASE f.type WHEN 'ParentalAnswerReceived' THEN 'question' ELSE 'exception' END AS kind,
               CASE f.type WHEN 'ParentalAnswerReceived' THEN f.payload ->> 'questionId'
                           ELSE f.payload ->> 'exceptionId' END AS item_id,
               CASE f.type WHEN 'ParentalAnswerReceived' THEN f.payload ->> 'answer'
                           WHEN 'AgeExceptionDecided' THEN
                             CASE f.payload ->> 'decision' WHEN 'approved' THEN 'approval' ELSE 'denial' END
                           END AS answer,
               f.payload ->> 'channel' AS channel,
               coalesce(f.payload ->> 'receivedAt', f.payload ->> 'decidedAt')::timestamptz AS answered_at,
               f.payload ->> 'guardianId' AS guardian,
               (f.payload ->> 'guardianAuthenticated')::boolean AS authenticated
          FROM fold_input f
         WHERE f.type IN ('ParentalAnswerReceived', 'AgeExceptionDecided')) a
 ORDER BY a.kind, a.item_id, a.position
ON CONFLICT (log_id, kind, item_id) DO UPDATE
   SET subject = coalesce(e.subject, excluded.subject), bundle_id = coalesce(e.bundle_id, excluded.bundle_id),
       answer = coalesce(e.answer, excluded.answer),
       answer_channel = CASE WHEN e.answered_position IS NULL THEN excluded.answer_channel ELSE e.answer_channel END,
       answered_at = CASE WHEN e.answered_position IS NULL THEN excluded.answered_at ELSE e.answered_at END,
       answered_by = CASE WHEN e.answered_position IS NULL THEN excluded.answered_by ELSE e.answered_by END,
       guardian_authenticated = CASE WHEN e.answered_position IS NULL THEN excluded.guardian_authenticated
                                     ELSE e.guardian_authenticated END,
       answered_event_id = coalesce(e.answered_event_id, excluded.answered_event_id),
       answered_position = coalesce(e.answered_position, excluded.answered_position),
       answers_received = e.answers_received + excluded.answers_received
 WHERE e.answered_position IS NULL OR e.answered_position < excluded.answered_position;

-- Expired: the first QuestionExpired.
INSERT INTO entries AS e (log_id, kind, item_id, subject, bundle_id, expired_at, expired_position, expired_event_id)
SELECT DISTINCT ON (f.payload ->> 'questionId')
       f.log_id, 'question', f.payload ->> 'questionId', f.subject, f.bundle_id, f.occurred_at,
       f.position, f.event_id
  FROM fold_input f
 WHERE f.type = 'QuestionExpired'
 ORDER BY f.payload ->> 'questionId', f.position
ON CONFLICT (log_id, kind, item_id) DO UPDATE
   SET subject = coalesce(e.subject, excluded.subject), bundle_id = coalesce(e.bundle_id, excluded.bundle_id),
       expired_at = excluded.expired_at, expired_position = excluded.expired_position,
       expired_event_id = excluded.expired_event_id
 WHERE e.expired_position IS NULL;

-- Rescinded: a ConsentRescinded for the subject and app withdraws every approval given before it
-- (the first rescission after the approval counts). Runs after the answers above, so an approval
-- and its rescission in the same range meet here.
UPDATE entries e
   SET rescinded_at = r.occurred_at, rescinded_position = r.position, rescinded_event_id = r.event_id
  FROM (SELECT DISTINCT ON (x.kind, x.item_id) x.log_id, x.kind, x.item_id,
               f.occurred_at, f.position, f.event_id
          FROM fold_input f
          -- Per rescission, the subject's entries through the (log_id, subject) index: a join
          -- the planner could turn around would scan every entry once per rescission.
          CROSS JOIN LATERAL (
            SELECT x.log_id, x.kind, x.item_id FROM entries x
             WHERE x.log_id = f.log_id AND x.subject = f.subject AND x.kind = 'question'
               AND x.bundle_id = f.payload ->> 'bundleId' AND x.answer = 'approval'
               AND x.answered_position < f.position AND x.rescinded_position IS NULL
            OFFSET 0) x  -- OFFSET 0: not flattened into a join
         WHERE f.type = 'ConsentRescinded'
         ORDER BY x.kind, x.item_id, f.position) r
 WHERE e.log_id = r.log_id AND e.kind = r.kind AND e.item_id = r.item_id;
