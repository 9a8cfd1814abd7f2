-- Folds fold_input into significant_changes. Answers find their change through `questions`, and
-- only through a question asked before them (by position), so the result does not depend on
-- where the ranges were cut.

-- Declared: the first SignificantChangeDeclared per change id.
INSERT INTO changes (log_id, change_id, bundle_id, introduced_in_version, description, age_rating_before,
                     age_rating_after, declared_at, declared_position, declared_event_id)
SELECT DISTINCT ON (f.payload ->> 'changeId')
       f.log_id, f.payload ->> 'changeId', f.bundle_id, f.payload ->> 'introducedInVersion',
       f.payload ->> 'description', f.payload ->> 'ageRatingBefore', f.payload ->> 'ageRatingAfter',
       f.occurred_at, f.position, f.event_id
  FROM fold_input f
 WHERE f.type = 'SignificantChangeDeclared'
 ORDER BY f.payload ->> 'changeId', f.position
ON CONFLICT (log_id, change_id) DO NOTHING;

-- Questions about a change: the change each asks about comes resolved in fold_input (by changeId,
-- or by the change's exact description: common/fill-fold-input.sql).
INSERT INTO questions (log_id, question_id, change_id, subject, position)
SELECT q.log_id, q.question_id, q.change_id, q.subject, q.position
  FROM (SELECT DISTINCT ON (f.payload ->> 'questionId')
               f.log_id, f.payload ->> 'questionId' AS question_id, f.subject, f.position, f.change_id
          FROM fold_input f
         WHERE f.type = 'PermissionQuestionSent' AND f.subject IS NOT NULL
         ORDER BY f.payload ->> 'questionId', f.position) q
 WHERE q.change_id IS NOT NULL
ON CONFLICT (log_id, question_id) DO NOTHING;

-- Asked: the first question per change and subject.
INSERT INTO subjects AS s (log_id, change_id, subject, question_id, asked_at, asked_position, asked_event_id)
SELECT DISTINCT ON (q.change_id, q.subject)
       q.log_id, q.change_id, q.subject, q.question_id, f.occurred_at, f.position, f.event_id
  FROM questions q
  JOIN fold_input f ON f.log_id = q.log_id AND f.position = q.position
 ORDER BY q.change_id, q.subject, q.position
ON CONFLICT (log_id, change_id, subject) DO UPDATE
   SET question_id = excluded.question_id, asked_at = excluded.asked_at,
       asked_position = excluded.asked_position, asked_event_id = excluded.asked_event_id
 WHERE s.asked_position IS NULL;

-- Answered: the latest answer to a question about the change asked before it.
INSERT INTO subjects AS s (log_id, change_id, subject, answer, answered_at, answered_position, answered_event_id)
SELECT DISTINCT ON (q.change_id, q.subject)
       q.log_id, q.change_id, q.subject, f.payload ->> 'answer', (f.payload ->> 'receivedAt')::timestamptz,
       f.position, f.event_id
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position
 WHERE f.type = 'ParentalAnswerReceived'
 ORDER BY q.change_id, q.subject, f.position DESC
ON CONFLICT (log_id, change_id, subject) DO UPDATE
   SET answer = excluded.answer, answered_at = excluded.answered_at,
       answered_position = excluded.answered_position, answered_event_id = excluded.answered_event_id
 WHERE s.answered_position IS NULL OR s.answered_position < excluded.answered_position;

-- Acknowledged: the first SignificantChangeAcknowledged per change and subject.
INSERT INTO subjects AS s (log_id, change_id, subject, acknowledged_at, acknowledged_position,
                           acknowledged_event_id, handled_by)
SELECT DISTINCT ON (f.payload ->> 'changeId', f.subject)
       f.log_id, f.payload ->> 'changeId', f.subject, f.occurred_at, f.position, f.event_id,
       f.payload ->> 'handledBy'
  FROM fold_input f
 WHERE f.type = 'SignificantChangeAcknowledged' AND f.subject IS NOT NULL
 ORDER BY f.payload ->> 'changeId', f.subject, f.position
ON CONFLICT (log_id, change_id, subject) DO UPDATE
   SET acknowledged_at = excluded.acknowledged_at, acknowledged_position = excluded.acknowledged_position,
       acknowledged_event_id = excluded.acknowledged_event_id, handled_by = excluded.handled_by
 WHERE s.acknowledged_position IS NULL;
