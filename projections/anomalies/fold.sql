-- Folds fold_input into anomalies. The lookup tables are filled first, then the checks judge the
-- range's events against rows at earlier positions only, so cutting the log into different
-- ranges gives the same findings.

INSERT INTO age_signals (log_id, subject, position, category, approval_required)
SELECT f.log_id, f.subject, f.position, f.derived ->> 'legalCategory',
       CASE f.type WHEN 'AgeRangeShared'
            THEN coalesce(f.payload -> 'activeParentalControls' ? 'significantAppChangeApprovalRequired', false)
            ELSE f.payload ->> 'userStatus' LIKE 'SUPERVISED%' END
  FROM fold_input f
 WHERE f.type IN ('AgeRangeShared', 'PlayAgeSignalReceived') AND f.subject IS NOT NULL
ON CONFLICT DO NOTHING;

INSERT INTO changes (log_id, change_id, bundle_id, version_key, position)
SELECT DISTINCT ON (f.log_id, f.payload ->> 'changeId')
       f.log_id, f.payload ->> 'changeId', f.bundle_id, ledger.version_key(f.payload ->> 'introducedInVersion'), f.position
  FROM fold_input f
 WHERE f.type = 'SignificantChangeDeclared'
 ORDER BY f.log_id, f.payload ->> 'changeId', f.position
ON CONFLICT DO NOTHING;

-- A question's change comes resolved in fold_input (by changeId, or by the change's exact
-- description: common/fill-fold-input.sql).
INSERT INTO questions (log_id, question_id, subject, change_id, expires_at, position)
SELECT DISTINCT ON (f.log_id, f.payload ->> 'questionId')
       f.log_id, f.payload ->> 'questionId', f.subject, f.change_id,
       (f.payload ->> 'expirationDate')::timestamptz, f.position
  FROM fold_input f
 WHERE f.type = 'PermissionQuestionSent'
 ORDER BY f.log_id, f.payload ->> 'questionId', f.position
ON CONFLICT DO NOTHING;

UPDATE questions q
   SET expired_position = x.position
  FROM (SELECT DISTINCT ON (q2.log_id, q2.question_id) q2.log_id, q2.question_id, f.position
          FROM fold_input f
          JOIN questions q2 ON q2.log_id = f.log_id AND q2.question_id = f.ref
                           AND q2.position < f.position AND q2.expired_position IS NULL
         WHERE f.type = 'QuestionExpired'
         ORDER BY q2.log_id, q2.question_id, f.position) x
 WHERE q.log_id = x.log_id AND q.question_id = x.question_id;

-- Approvals of a change: an approving answer to a question about it; on Android, a SUPERVISED signal.
INSERT INTO approvals (log_id, subject, position, bundle_id, change_id)
SELECT f.log_id, q.subject, f.position, f.bundle_id, q.change_id
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position
 WHERE f.type = 'ParentalAnswerReceived' AND f.payload ->> 'answer' = 'approval'
   AND q.change_id IS NOT NULL AND q.subject IS NOT NULL
UNION ALL
SELECT f.log_id, f.subject, f.position, f.bundle_id, NULL
  FROM fold_input f
 WHERE f.type = 'PlayAgeSignalReceived' AND f.payload ->> 'userStatus' = 'SUPERVISED' AND f.subject IS NOT NULL
ON CONFLICT DO NOTHING;

INSERT INTO rescissions (log_id, position, event_id, subject, bundle_id, rescinded_at, enforcement_action)
SELECT f.log_id, f.position, f.event_id, f.subject, f.payload ->> 'bundleId', f.occurred_at,
       f.payload ->> 'enforcementAction'
  FROM fold_input f
 WHERE f.type = 'ConsentRescinded' AND f.subject IS NOT NULL
ON CONFLICT DO NOTHING;

-- Enforcement: the first AccessGateApplied closing a feature of the app for the subject after it.
UPDATE rescissions r
   SET enforced_position = x.position, enforced_event_id = x.event_id, enforced_at = x.occurred_at
  FROM (SELECT DISTINCT ON (r2.log_id, r2.position) r2.log_id, r2.position AS rescission, f.position,
               f.event_id, f.occurred_at
          FROM fold_input f
          JOIN rescissions r2 ON r2.log_id = f.log_id AND r2.subject = f.subject AND r2.bundle_id = f.bundle_id
                             AND r2.position < f.position AND r2.enforced_position IS NULL
         WHERE f.type = 'AccessGateApplied' AND f.payload ->> 'state' = 'closed'
         ORDER BY r2.log_id, r2.position, f.position) x
 WHERE r.log_id = x.log_id AND r.position = x.rescission;

-- Catalogue kinds. Answers judged against the question as it stood before them (by position).
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, related_position)
SELECT f.log_id, f.position, 'answer-without-question', f.event_id, f.subject, 'catalogue',
       format('the answer on question-%s has no PermissionQuestionSent before it', f.ref), NULL
  FROM fold_input f
 WHERE f.type = 'ParentalAnswerReceived'
   AND NOT EXISTS (SELECT 1 FROM questions q
                    WHERE q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position)
UNION ALL
SELECT f.log_id, f.position, 'answer-after-expiry', f.event_id, f.subject, 'catalogue',
       format('answered at %s, after the question expired at %s', f.occurred_at, q.expires_at), q.position
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position
 WHERE f.type = 'ParentalAnswerReceived' AND f.occurred_at > q.expires_at
UNION ALL
SELECT f.log_id, f.position, 'access-opened-without-basis', f.event_id, f.subject, 'catalogue',
       format('%s was opened for %s citing no event', f.payload ->> 'feature', f.subject), NULL
  FROM fold_input f
 WHERE f.type = 'AccessGateApplied' AND f.payload ->> 'state' = 'open'
   AND jsonb_array_length(coalesce(f.payload -> 'basis', '[]'::jsonb)) = 0
ON CONFLICT DO NOTHING;

-- Exceptions: the first request and the first decision of each.
INSERT INTO exceptions AS x (log_id, exception_id, requested_position, decided_position)
SELECT f.log_id, f.ref,
       min(f.position) FILTER (WHERE f.type = 'AgeExceptionRequested'),
       min(f.position) FILTER (WHERE f.type = 'AgeExceptionDecided')
  FROM fold_input f
 WHERE f.type IN ('AgeExceptionRequested', 'AgeExceptionDecided')
 GROUP BY f.log_id, f.ref
ON CONFLICT (log_id, exception_id) DO UPDATE
   SET requested_position = coalesce(x.requested_position, excluded.requested_position),
       decided_position = coalesce(x.decided_position, excluded.decided_position);

INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, related_position)
SELECT f.log_id, f.position, 'exception-decided-twice', f.event_id, f.subject, 'catalogue',
       format('exception-%s was already decided at position %s', f.ref, x.decided_position), x.decided_position
  FROM fold_input f
  JOIN exceptions x ON x.log_id = f.log_id AND x.exception_id = f.ref AND x.decided_position < f.position
 WHERE f.type = 'AgeExceptionDecided'
UNION ALL
SELECT f.log_id, f.position, 'decision-without-request', f.event_id, f.subject, 'catalogue',
       format('the decision on exception-%s has no AgeExceptionRequested before it', f.ref), NULL
  FROM fold_input f
  JOIN exceptions x ON x.log_id = f.log_id AND x.exception_id = f.ref
 WHERE f.type = 'AgeExceptionDecided' AND (x.requested_position IS NULL OR x.requested_position > f.position)
ON CONFLICT DO NOTHING;

-- Rule: access opened to a minor with no approval on record for the change in force.
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, related_position)
SELECT g.log_id, g.position, 'access-without-approval', g.event_id, g.subject, 'rule',
       format('%s opened %s to a minor (%s) with no approval on record for change %s',
              g.bundle_id, g.payload ->> 'feature', a.category, c.change_id),
       c.position
  FROM fold_input g
  JOIN LATERAL (SELECT s.category, s.approval_required FROM age_signals s
                 WHERE s.log_id = g.log_id AND s.subject = g.subject AND s.position < g.position
                 ORDER BY s.position DESC LIMIT 1) a
    ON a.category IN ('under13', '13to15', '16to17') AND a.approval_required
  JOIN LATERAL (SELECT c.change_id, c.position FROM changes c
                 WHERE c.log_id = g.log_id AND c.bundle_id = g.bundle_id AND c.position < g.position
                   AND (c.version_key IS NULL OR ledger.version_key(g.app_version) IS NULL
                        OR c.version_key <= ledger.version_key(g.app_version))
                 ORDER BY c.position DESC LIMIT 1) c ON true
 WHERE g.type = 'AccessGateApplied' AND g.payload ->> 'state' = 'open' AND g.subject IS NOT NULL
   AND NOT EXISTS (
         SELECT 1 FROM approvals p
          WHERE p.log_id = g.log_id AND p.subject = g.subject AND p.position < g.position
            AND (p.change_id = c.change_id
                 OR (p.change_id IS NULL AND p.bundle_id = g.bundle_id AND p.position > c.position))
            AND NOT EXISTS (SELECT 1 FROM rescissions r
                             WHERE r.log_id = g.log_id AND r.subject = g.subject AND r.bundle_id = g.bundle_id
                               AND r.position > p.position AND r.position < g.position))
ON CONFLICT DO NOTHING;

-- Rule: an answer recorded after its question's QuestionExpired.
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, related_position)
SELECT f.log_id, f.position, 'answer-after-question-expired', f.event_id, f.subject, 'rule',
       format('the answer to question %s came after it expired (position %s)', q.question_id, q.expired_position),
       q.expired_position
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref
                  AND q.expired_position < f.position
 WHERE f.type = 'ParentalAnswerReceived'
ON CONFLICT DO NOTHING;
