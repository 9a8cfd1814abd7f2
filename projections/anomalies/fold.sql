-- Folds fold_input into anomalies. The lookup tables are filled first, then the checks judge the
-- range's events against rows at earlier positions only, so cutting the log into different
-- ranges gives the same findings. Each finding's kind is a rule of the rules catalogue
-- (docs/rules.md), which states it, its basis and its evidence; the statements below are in the
-- catalogue's order.

-- Lookups -------------------------------------------------------------------------------------

-- The age signals (the types the catalogue declares so, EventRole: Apple's, Google Play's, and an
-- app's own gate or a third-party verifier when the check passed; a failed or inconclusive check
-- tells nothing of the age, and must not hide the signal before it). Only the platforms say whether
-- a parent must approve changes.
INSERT INTO age_signals (log_id, subject, position, occurred_at, category, verified_adult, approval_required)
SELECT f.log_id, f.subject, f.position, f.occurred_at, f.derived ->> 'legalCategory',
       coalesce((f.derived ->> 'verifiedAdult')::boolean, false),
       CASE f.type WHEN 'AgeRangeShared'
                   THEN coalesce(f.payload -> 'activeParentalControls' ? 'significantAppChangeApprovalRequired', false)
                   WHEN 'PlayAgeSignalReceived' THEN f.payload ->> 'userStatus' LIKE 'SUPERVISED%'
                   ELSE false END
  FROM fold_input f
 WHERE ledger.is_age_signal(f.type, f.payload)
   AND f.subject IS NOT NULL
ON CONFLICT DO NOTHING;

-- What the system told the app it must do (a failed check tells nothing and is left out).
INSERT INTO requirements (log_id, subject, bundle_id, position, eligible, parental_consent, adult_notification)
SELECT f.log_id, f.subject, coalesce(f.bundle_id, ''), f.position,
       (f.payload ->> 'isEligibleForAgeFeatures')::boolean,
       coalesce(f.payload -> 'requiredRegulatoryFeatures' ? 'significantAppChangeRequiresParentalConsent', false),
       coalesce(f.payload -> 'requiredRegulatoryFeatures' ? 'significantAppChangeRequiresAdultNotification', false)
  FROM fold_input f
 WHERE f.type = 'EligibilityChecked' AND f.subject IS NOT NULL AND f.payload ? 'isEligibleForAgeFeatures'
ON CONFLICT DO NOTHING;

-- The version each install was first seen with: the version key is computed once per install, after
-- DISTINCT ON has picked its first event (not once for every event of the range).
INSERT INTO first_seen (log_id, subject, bundle_id, position, version_key)
SELECT d.log_id, d.subject, d.bundle_id, d.position, ledger.version_key(d.app_version)
  FROM (SELECT DISTINCT ON (f.subject, f.bundle_id) f.log_id, f.subject, f.bundle_id, f.position, f.app_version
          FROM fold_input f
         WHERE f.subject IS NOT NULL AND f.bundle_id IS NOT NULL
         ORDER BY f.subject, f.bundle_id, f.position) d
ON CONFLICT DO NOTHING;

INSERT INTO changes (log_id, change_id, bundle_id, version_key, description, occurred_at, position)
SELECT DISTINCT ON (f.change_id)
       f.log_id, f.change_id, f.bundle_id, ledger.version_key(f.payload ->> 'introducedInVersion'),
       f.payload ->> 'description', f.occurred_at, f.position
  FROM fold_input f
 WHERE f.type = 'SignificantChangeDeclared'
 ORDER BY f.change_id, f.position
ON CONFLICT DO NOTHING;

-- A question's change comes resolved in fold_input (by changeId, or by the change's exact
-- description: common/fill-fold-input.sql).
INSERT INTO questions (log_id, question_id, subject, change_id, expires_at, occurred_at, position)
SELECT DISTINCT ON (f.payload ->> 'questionId')
       f.log_id, f.payload ->> 'questionId', f.subject, f.change_id,
       (f.payload ->> 'expirationDate')::timestamptz, f.occurred_at, f.position
  FROM fold_input f
 WHERE f.type = 'PermissionQuestionSent'
 ORDER BY f.payload ->> 'questionId', f.position
ON CONFLICT DO NOTHING;

UPDATE questions q
   SET expired_position = x.position
  FROM (SELECT DISTINCT ON (q2.question_id) q2.log_id, q2.question_id, f.position
          FROM fold_input f
          JOIN questions q2 ON q2.log_id = f.log_id AND q2.question_id = f.ref
                           AND q2.position < f.position AND q2.expired_position IS NULL
         WHERE f.type = 'QuestionExpired'
         ORDER BY q2.question_id, f.position) x
 WHERE q.log_id = x.log_id AND q.question_id = x.question_id;

INSERT INTO acknowledgments (log_id, subject, position, change_id, handled_by, holds)
SELECT f.log_id, f.subject, f.position, f.change_id, f.payload ->> 'handledBy',
       c.position IS NOT NULL AND f.payload ->> 'handledBy' <> 'notRequired'
       AND (f.payload ->> 'handledBy' <> 'originalAppVersion' OR c.version_key IS NULL
            OR ledger.version_key(f.payload ->> 'originalAppVersion') IS NULL
            OR ledger.version_key(f.payload ->> 'originalAppVersion') >= c.version_key)
  FROM fold_input f
  LEFT JOIN changes c ON c.log_id = f.log_id AND c.change_id = f.change_id AND c.position < f.position
 WHERE f.type = 'SignificantChangeAcknowledged' AND f.subject IS NOT NULL
ON CONFLICT DO NOTHING;

-- A parent's word on a change: an answer to a question about it; on Android, a Play signal.
INSERT INTO answers (log_id, subject, position, bundle_id, change_id, answer)
SELECT f.log_id, q.subject, f.position, f.bundle_id, q.change_id, f.payload ->> 'answer'
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position
 WHERE f.type = 'ParentalAnswerReceived' AND f.payload ->> 'answer' IN ('approval', 'denial')
   AND q.change_id IS NOT NULL AND q.subject IS NOT NULL
UNION ALL
SELECT f.log_id, f.subject, f.position, f.bundle_id, NULL,
       CASE f.payload ->> 'userStatus' WHEN 'SUPERVISED' THEN 'approval' ELSE 'denial' END
  FROM fold_input f
 WHERE f.type = 'PlayAgeSignalReceived' AND f.payload ->> 'userStatus' IN ('SUPERVISED', 'SUPERVISED_APPROVAL_DENIED')
   AND f.subject IS NOT NULL
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
  FROM (SELECT DISTINCT ON (r2.position) r2.log_id, r2.position AS rescission, f.position,
               f.event_id, f.occurred_at
          FROM fold_input f
          JOIN rescissions r2 ON r2.log_id = f.log_id AND r2.subject = f.subject AND r2.bundle_id = f.bundle_id
                             AND r2.position < f.position AND r2.enforced_position IS NULL
         WHERE f.type = 'AccessGateApplied' AND f.payload ->> 'state' = 'closed'
         ORDER BY r2.position, f.position) x
 WHERE r.log_id = x.log_id AND r.position = x.rescission;

-- Exceptions: who asked for which app, the first request, decision and approval of each.
INSERT INTO exceptions AS x (log_id, exception_id, subject, apple_item_id, requested_position, decided_position, approved_position)
SELECT f.log_id, f.ref,
       (array_agg(f.subject ORDER BY f.position) FILTER (WHERE f.type = 'AgeExceptionRequested'))[1],
       (array_agg((f.payload ->> 'appleItemID')::bigint ORDER BY f.position) FILTER (WHERE f.type = 'AgeExceptionRequested'))[1],
       min(f.position) FILTER (WHERE f.type = 'AgeExceptionRequested'),
       min(f.position) FILTER (WHERE f.type = 'AgeExceptionDecided'),
       min(f.position) FILTER (WHERE f.type = 'AgeExceptionDecided' AND f.payload ->> 'decision' = 'approved')
  FROM fold_input f
 WHERE f.type IN ('AgeExceptionRequested', 'AgeExceptionDecided')
 GROUP BY f.log_id, f.ref
ON CONFLICT (log_id, exception_id) DO UPDATE
   SET subject = coalesce(x.subject, excluded.subject),
       apple_item_id = coalesce(x.apple_item_id, excluded.apple_item_id),
       requested_position = coalesce(x.requested_position, excluded.requested_position),
       decided_position = coalesce(x.decided_position, excluded.decided_position),
       approved_position = coalesce(x.approved_position, excluded.approved_position);

-- Rules on an opened feature ---------------------------------------------------------------------
-- Each opening is judged once against what stood before it: the subject's latest age signal, the
-- latest requirement DeclaredAgeRange gave the app for the subject, the app's significant change in
-- force (the latest declared before the gate, introduced in or before the gate's app version and
-- after the version the subject first had, when they are dotted numbers), the parent's latest word on that change (void once a rescission for
-- the app follows it), and whether the subject acknowledged the change. The age of the signal each
-- opening relied on is kept in signal_ages, for age-signal-expired (judged against the policy), and
-- every fact an opening was judged on in openings, which explain shows.
WITH gates AS MATERIALIZED (
  SELECT g.log_id, g.position, g.event_id, g.subject, g.bundle_id, g.payload ->> 'feature' AS feature,
         jsonb_array_length(coalesce(g.payload -> 'basis', '[]'::jsonb)) AS basis_count,
         a.position AS age_position, a.category, a.verified_adult, a.approval_required,
         extract(epoch FROM g.occurred_at - a.occurred_at)::bigint AS age_seconds,
         r.position AS requirement_position, coalesce(r.eligible AND r.parental_consent, false) AS consent_required,
         coalesce(r.eligible AND r.adult_notification, false) AS notification_required,
         c.change_id, c.position AS change_position,
         w.position AS word_position, w.answer AS word,
         w.answer = 'approval' AND EXISTS (
           SELECT 1 FROM rescissions x
            WHERE x.log_id = g.log_id AND x.subject = g.subject AND x.bundle_id = g.bundle_id
              AND x.position > w.position AND x.position < g.position) AS approval_rescinded,
         k.position AS acknowledgment_position
    FROM fold_input g
    LEFT JOIN LATERAL (SELECT s.position, s.occurred_at, s.category, s.verified_adult, s.approval_required FROM age_signals s
                        WHERE s.log_id = g.log_id AND s.subject = g.subject AND s.position < g.position
                        ORDER BY s.position DESC LIMIT 1) a ON true
    LEFT JOIN LATERAL (SELECT q.position, q.eligible, q.parental_consent, q.adult_notification FROM requirements q
                        WHERE q.log_id = g.log_id AND q.subject = g.subject AND q.bundle_id = coalesce(g.bundle_id, '')
                          AND q.position < g.position
                        ORDER BY q.position DESC LIMIT 1) r ON true
    LEFT JOIN first_seen i ON i.log_id = g.log_id AND i.subject = g.subject AND i.bundle_id = g.bundle_id
    LEFT JOIN LATERAL (SELECT c.change_id, c.position FROM changes c
                        WHERE c.log_id = g.log_id AND c.bundle_id = g.bundle_id AND c.position < g.position
                          AND (c.version_key IS NULL OR ledger.version_key(g.app_version) IS NULL
                               OR c.version_key <= ledger.version_key(g.app_version))
                          AND (c.version_key IS NULL OR i.version_key IS NULL OR c.version_key > i.version_key)
                        ORDER BY c.position DESC LIMIT 1) c ON true
    LEFT JOIN LATERAL (SELECT p.position, p.answer FROM answers p
                        WHERE p.log_id = g.log_id AND p.subject = g.subject AND p.position < g.position
                          AND (p.change_id = c.change_id
                               OR (p.change_id IS NULL AND p.bundle_id = g.bundle_id AND p.position > c.position))
                        ORDER BY p.position DESC LIMIT 1) w ON true
    LEFT JOIN LATERAL (SELECT k.position FROM acknowledgments k
                        WHERE k.log_id = g.log_id AND k.subject = g.subject AND k.change_id = c.change_id
                          AND k.holds AND k.position < g.position
                        ORDER BY k.position DESC LIMIT 1) k ON true
   WHERE g.type = 'AccessGateApplied' AND g.payload ->> 'state' = 'open' AND g.subject IS NOT NULL),
ages AS (
  INSERT INTO signal_ages (log_id, position, subject, signal_position, age_seconds)
  SELECT log_id, position, subject, age_position, age_seconds FROM gates WHERE age_position IS NOT NULL
  ON CONFLICT DO NOTHING),
judged AS (
  INSERT INTO openings (log_id, position, subject, age_position, category, verified_adult, controls_require_approval,
                        requirement_position, consent_required, notification_required, change_id, change_position,
                        word, word_position, approval_rescinded, acknowledgment_position)
  SELECT log_id, position, subject, age_position, category, verified_adult, approval_required,
         requirement_position, consent_required, notification_required, change_id, change_position,
         word, word_position, approval_rescinded, acknowledgment_position
    FROM gates
  ON CONFLICT DO NOTHING)
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, evidence)
SELECT log_id, position, 'access-after-denial', event_id, subject, 'rule',
       format('%s opened %s after the parent denied change %s (position %s)', bundle_id, feature, change_id, word_position),
       ARRAY[change_position, word_position, position]
  FROM gates
 WHERE word = 'denial' AND category IS DISTINCT FROM 'adult'
UNION ALL
SELECT log_id, position, 'access-without-approval', event_id, subject, 'rule',
       format('%s opened %s to a minor (%s) with no approval on record for change %s, which %s',
              bundle_id, feature, category, change_id,
              CASE WHEN consent_required THEN 'DeclaredAgeRange required parental consent for'
                   ELSE 'the device''s parental controls required approval of' END)
       || CASE WHEN approval_rescinded THEN format(' (the approval at position %s was rescinded since)', word_position) ELSE '' END,
       ARRAY(SELECT DISTINCT e FROM unnest(ARRAY[age_position, CASE WHEN consent_required THEN requirement_position END,
                                                 change_position, CASE WHEN approval_rescinded THEN word_position END, position]) e
              WHERE e IS NOT NULL ORDER BY e)
  FROM gates
 WHERE change_id IS NOT NULL AND category IN ('under13', '13to15', '16to17', '18toMajority')
   AND (consent_required OR approval_required)
   AND (word IS NULL OR (word = 'approval' AND approval_rescinded))
UNION ALL
SELECT log_id, position, 'adult-access-without-acknowledgment', event_id, subject, 'rule',
       format('%s opened %s to a verified adult with no acknowledgment on record of change %s, '
              'which DeclaredAgeRange required adults to be shown', bundle_id, feature, change_id),
       ARRAY(SELECT e FROM unnest(ARRAY[age_position, requirement_position, change_position, position]) e
              WHERE e IS NOT NULL ORDER BY e)
  FROM gates
 WHERE change_id IS NOT NULL AND category = 'adult' AND verified_adult AND notification_required
   AND acknowledgment_position IS NULL
UNION ALL
SELECT log_id, position, 'unverified-adult-access', event_id, subject, 'rule',
       format('%s opened %s to an adult whose age is not verified, while change %s, which DeclaredAgeRange '
              'required adults to be shown, was in force', bundle_id, feature, change_id),
       ARRAY(SELECT e FROM unnest(ARRAY[age_position, requirement_position, change_position, position]) e
              WHERE e IS NOT NULL ORDER BY e)
  FROM gates
 WHERE change_id IS NOT NULL AND category = 'adult' AND NOT verified_adult AND notification_required
UNION ALL
SELECT log_id, position, 'access-opened-without-basis', event_id, subject, 'rule',
       format('%s was opened for %s citing no event', feature, subject), ARRAY[position]
  FROM gates
 WHERE basis_count = 0
ON CONFLICT DO NOTHING;

-- Rules on other events ---------------------------------------------------------------------------
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, evidence)
-- An acknowledgment through originalAppVersion of a change introduced after that version.
SELECT f.log_id, f.position, 'acknowledgment-version-false', f.event_id, f.subject, 'rule',
       format('change %s was marked handled by originalAppVersion %s, but it was introduced in a later version',
              f.change_id, f.payload ->> 'originalAppVersion'),
       ARRAY[c.position, f.position]
  FROM fold_input f
  JOIN changes c ON c.log_id = f.log_id AND c.change_id = f.change_id AND c.position < f.position
 WHERE f.type = 'SignificantChangeAcknowledged' AND f.payload ->> 'handledBy' = 'originalAppVersion'
   AND ledger.version_key(f.payload ->> 'originalAppVersion') < c.version_key
UNION ALL
-- An acknowledgment of a change not declared before it, or declared as occurring after it.
SELECT f.log_id, f.position, 'acknowledgment-before-change', f.event_id, f.subject, 'rule',
       CASE WHEN c.position IS NULL THEN format('change %s was acknowledged but no SignificantChangeDeclared for it precedes it', f.change_id)
            ELSE format('change %s was acknowledged at %s, before it was declared (%s)', f.change_id, f.occurred_at, c.occurred_at) END,
       CASE WHEN c.position IS NULL THEN ARRAY[f.position] ELSE ARRAY[c.position, f.position] END
  FROM fold_input f
  LEFT JOIN changes c ON c.log_id = f.log_id AND c.change_id = f.change_id AND c.position < f.position
 WHERE f.type = 'SignificantChangeAcknowledged' AND (c.position IS NULL OR c.occurred_at > f.occurred_at)
UNION ALL
-- An answer with no question before it in the log, or to a question that occurred after it.
SELECT f.log_id, f.position, 'answer-before-question', f.event_id, f.subject, 'rule',
       CASE WHEN q.position IS NULL THEN format('the answer on question %s has no PermissionQuestionSent before it', f.ref)
            ELSE format('the answer on question %s occurred at %s, before the question (%s)', f.ref, f.occurred_at, q.occurred_at) END,
       CASE WHEN q.position IS NULL THEN ARRAY[f.position] ELSE ARRAY[q.position, f.position] END
  FROM fold_input f
  LEFT JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position
 WHERE f.type = 'ParentalAnswerReceived' AND (q.position IS NULL OR q.occurred_at > f.occurred_at)
UNION ALL
-- An answer recorded after its question's QuestionExpired.
SELECT f.log_id, f.position, 'answer-after-question-expired', f.event_id, f.subject, 'rule',
       format('the answer to question %s came after it expired (position %s)', q.question_id, q.expired_position),
       ARRAY[q.expired_position, f.position]
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.expired_position < f.position
 WHERE f.type = 'ParentalAnswerReceived'
UNION ALL
-- An install that asked for an age-rating exception and went ahead with no approval on record.
SELECT f.log_id, f.position, 'exception-install-without-approval', f.event_id, f.subject, 'rule',
       format('app %s was installed with an age-rating exception, and no approved exception for it is on record',
              f.payload ->> 'appleItemID'),
       ARRAY(SELECT e FROM unnest(ARRAY[x.requested_position, f.position]) e WHERE e IS NOT NULL ORDER BY e)
  FROM fold_input f
  LEFT JOIN LATERAL (SELECT max(x.requested_position) AS requested_position FROM exceptions x
                      WHERE x.log_id = f.log_id AND x.subject = f.subject
                        AND x.apple_item_id = (f.payload ->> 'appleItemID')::bigint
                        AND x.requested_position < f.position) x ON true
 WHERE f.type = 'InstallAttempted' AND f.payload ->> 'outcome' = 'installed'
   AND (f.payload ->> 'requestAgeException')::boolean AND f.subject IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM exceptions x
                    WHERE x.log_id = f.log_id AND x.subject = f.subject
                      AND x.apple_item_id = (f.payload ->> 'appleItemID')::bigint
                      AND x.approved_position < f.position)
UNION ALL
-- An exception approved in person with no guardian authentication recorded.
SELECT f.log_id, f.position, 'in-person-approval-unauthenticated', f.event_id, f.subject, 'rule',
       format('exception %s was approved in person with no guardian authentication recorded', f.ref),
       ARRAY(SELECT e FROM unnest(ARRAY[x.requested_position, f.position]) e WHERE e IS NOT NULL ORDER BY e)
  FROM fold_input f
  LEFT JOIN exceptions x ON x.log_id = f.log_id AND x.exception_id = f.ref AND x.requested_position < f.position
 WHERE f.type = 'AgeExceptionDecided' AND f.payload ->> 'decision' = 'approved' AND f.payload ->> 'channel' = 'inPerson'
   AND (f.payload ->> 'guardianAuthenticated')::boolean IS DISTINCT FROM true
ON CONFLICT DO NOTHING;

-- Surprising facts (source 'catalogue') -----------------------------------------------------------
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, evidence)
SELECT f.log_id, f.position, 'answer-after-expiry', f.event_id, f.subject, 'catalogue',
       format('answered at %s, after the question expired at %s', f.occurred_at, q.expires_at), ARRAY[q.position, f.position]
  FROM fold_input f
  JOIN questions q ON q.log_id = f.log_id AND q.question_id = f.ref AND q.position < f.position
 WHERE f.type = 'ParentalAnswerReceived' AND f.occurred_at > q.expires_at
UNION ALL
SELECT f.log_id, f.position, 'exception-decided-twice', f.event_id, f.subject, 'catalogue',
       format('exception-%s was already decided at position %s', f.ref, x.decided_position), ARRAY[x.decided_position, f.position]
  FROM fold_input f
  JOIN exceptions x ON x.log_id = f.log_id AND x.exception_id = f.ref AND x.decided_position < f.position
 WHERE f.type = 'AgeExceptionDecided'
UNION ALL
SELECT f.log_id, f.position, 'decision-without-request', f.event_id, f.subject, 'catalogue',
       format('the decision on exception-%s has no AgeExceptionRequested before it', f.ref), ARRAY[f.position]
  FROM fold_input f
  JOIN exceptions x ON x.log_id = f.log_id AND x.exception_id = f.ref
 WHERE f.type = 'AgeExceptionDecided' AND (x.requested_position IS NULL OR x.requested_position > f.position)
UNION ALL
SELECT f.log_id, f.position, 'change-redeclared', f.event_id, f.subject, 'catalogue',
       format('change %s was declared again (first at position %s) with a different %s', f.change_id, c.position,
              CASE WHEN f.payload ->> 'description' IS DISTINCT FROM c.description THEN 'description' ELSE 'version' END),
       ARRAY[c.position, f.position]
  FROM fold_input f
  JOIN changes c ON c.log_id = f.log_id AND c.change_id = f.change_id AND c.position < f.position
 WHERE f.type = 'SignificantChangeDeclared'
   AND (f.payload ->> 'description' IS DISTINCT FROM c.description
        OR ledger.version_key(f.payload ->> 'introducedInVersion') IS DISTINCT FROM c.version_key)
UNION ALL
SELECT f.log_id, f.position, 'occurred-in-future', f.event_id, f.subject, 'catalogue',
       format('occurredAt %s is %s after the ledger recorded the event', f.occurred_at, date_trunc('second', f.occurred_at - f.recorded_at)),
       ARRAY[f.position]
  FROM fold_input f
 WHERE f.occurred_at > f.recorded_at + interval '1 year'
ON CONFLICT DO NOTHING;
