-- Folds fold_input (the events of one range, in position order) into subject_state.
-- Each statement keeps, per key, the event with the highest position: the range is always after
-- everything folded before, and the guards on position make a fold of the same range twice
-- change nothing, so catch-up in any chunks, a rebuild and time travel give the same rows.

-- Every subject the range mentions, in one upsert per subject: the latest event folded and how
-- many (the types of reads.txt: fold_input may hold other projections' types too when a rebuild
-- folds several at once); the age category and declaration from the latest age signal (the
-- catalogue's EventRole: AgeRangeShared, PlayAgeSignalReceived, AgeVerificationCompleted that
-- passed, whose declaration is the method: appAgeGate, thirdParty…); the parental controls in force from the latest AgeRangeShared (Play and
-- the app's own checks report none). Each group of columns moves only when the range has a newer event for it.
INSERT INTO subjects AS s (log_id, subject, updated_position, updated_event_id, updated_at, events_folded,
                           age_category, age_lower, age_upper, age_declaration, verified_adult, age_event_type,
                           age_position, age_event_id, age_occurred_at, parental_controls, controls_position)
SELECT u.log_id, u.subject, u.position, u.event_id, u.occurred_at, u.n,
       a.category, a.lower, a.upper, a.declaration, a.verified, a.type, a.position, a.event_id, a.occurred_at,
       c.controls, c.position
  FROM (SELECT DISTINCT ON (f.subject) f.log_id, f.subject, f.position, f.event_id, f.occurred_at,
               count(*) OVER (PARTITION BY f.subject) AS n
          FROM fold_input f
         WHERE f.subject IS NOT NULL
           AND f.type IN ('AgeRangeShared', 'PlayAgeSignalReceived', 'AgeVerificationCompleted', 'AgeRangeDeclined',
                          'AgeRangeRequestFailed', 'AccessGateApplied', 'SubjectErased')
         ORDER BY f.subject, f.position DESC) u
  LEFT JOIN (SELECT DISTINCT ON (f.subject) f.log_id, f.subject, f.type, f.position, f.event_id,
               f.occurred_at, f.derived ->> 'legalCategory' AS category,
               (f.derived ->> 'verifiedAdult')::boolean AS verified,
               CASE f.type WHEN 'PlayAgeSignalReceived' THEN (f.payload ->> 'ageLower')::integer
                           ELSE (f.payload ->> 'lowerBound')::integer END AS lower,
               CASE f.type WHEN 'PlayAgeSignalReceived' THEN (f.payload ->> 'ageUpper')::integer
                           ELSE (f.payload ->> 'upperBound')::integer END AS upper,
               CASE f.type WHEN 'AgeRangeShared' THEN f.payload ->> 'ageRangeDeclaration'
                           WHEN 'PlayAgeSignalReceived' THEN f.payload ->> 'userStatus'
                           ELSE f.payload ->> 'method' END AS declaration
          FROM fold_input f
         WHERE ledger.is_age_signal(f.type, f.payload)
           AND f.subject IS NOT NULL
         ORDER BY f.subject, f.position DESC) a ON a.log_id = u.log_id AND a.subject = u.subject
  LEFT JOIN (SELECT DISTINCT ON (f.subject) f.log_id, f.subject, f.position,
               ARRAY(SELECT jsonb_array_elements_text(coalesce(f.payload -> 'activeParentalControls', '[]'::jsonb))) AS controls
          FROM fold_input f
         WHERE f.type = 'AgeRangeShared' AND f.subject IS NOT NULL
         ORDER BY f.subject, f.position DESC) c ON c.log_id = u.log_id AND c.subject = u.subject
ON CONFLICT (log_id, subject) DO UPDATE
   SET updated_position = excluded.updated_position, updated_event_id = excluded.updated_event_id,
       updated_at = excluded.updated_at, events_folded = s.events_folded + excluded.events_folded,
       age_category = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_category ELSE s.age_category END,
       age_lower = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_lower ELSE s.age_lower END,
       age_upper = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_upper ELSE s.age_upper END,
       age_declaration = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_declaration ELSE s.age_declaration END,
       verified_adult = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.verified_adult ELSE s.verified_adult END,
       age_event_type = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_event_type ELSE s.age_event_type END,
       age_position = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_position ELSE s.age_position END,
       age_event_id = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_event_id ELSE s.age_event_id END,
       age_occurred_at = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_occurred_at ELSE s.age_occurred_at END,
       parental_controls = CASE WHEN excluded.controls_position > coalesce(s.controls_position, 0)
                                THEN excluded.parental_controls ELSE s.parental_controls END,
       controls_position = CASE WHEN excluded.controls_position > coalesce(s.controls_position, 0)
                                THEN excluded.controls_position ELSE s.controls_position END
 WHERE s.updated_position < excluded.updated_position;

-- Erasure (crypto-shredding): the first SubjectErased.
UPDATE subjects s
   SET erased = true, erased_position = e.position, erased_event_id = e.event_id
  FROM (SELECT DISTINCT ON (f.subject) f.log_id, f.subject, f.position, f.event_id
          FROM fold_input f
         WHERE f.type = 'SubjectErased' AND f.subject IS NOT NULL
         ORDER BY f.subject, f.position) e
 WHERE s.log_id = e.log_id AND s.subject = e.subject AND s.erased_position IS NULL;

-- The latest age signal per platform.
INSERT INTO platform_signals AS p (log_id, subject, platform, event_type, outcome, age_category, position, event_id, occurred_at)
SELECT DISTINCT ON (f.subject, coalesce(f.platform, 'unknown'))
       f.log_id, f.subject, coalesce(f.platform, 'unknown'), f.type,
       CASE f.type WHEN 'AgeRangeShared' THEN 'shared'
                   WHEN 'AgeRangeDeclined' THEN 'declined'
                   WHEN 'AgeRangeRequestFailed' THEN 'failed:' || (f.payload ->> 'error')
                   ELSE f.payload ->> 'userStatus' END,
       f.derived ->> 'legalCategory', f.position, f.event_id, f.occurred_at
  FROM fold_input f
 WHERE f.type IN ('AgeRangeShared', 'AgeRangeDeclined', 'AgeRangeRequestFailed', 'PlayAgeSignalReceived')
   AND f.subject IS NOT NULL
 ORDER BY f.subject, coalesce(f.platform, 'unknown'), f.position DESC
ON CONFLICT (log_id, subject, platform) DO UPDATE
   SET event_type = excluded.event_type, outcome = excluded.outcome, age_category = excluded.age_category,
       position = excluded.position, event_id = excluded.event_id, occurred_at = excluded.occurred_at
 WHERE p.position < excluded.position;

-- Every gated feature: the latest AccessGateApplied per subject, app and feature.
INSERT INTO features AS g (log_id, subject, bundle_id, feature, state, policy_version, basis, position, event_id, occurred_at)
SELECT DISTINCT ON (f.subject, coalesce(f.bundle_id, ''), f.payload ->> 'feature')
       f.log_id, f.subject, coalesce(f.bundle_id, ''), f.payload ->> 'feature', f.payload ->> 'state',
       f.payload ->> 'policyVersion',
       ARRAY(SELECT jsonb_array_elements_text(f.payload -> 'basis'))::uuid[],
       f.position, f.event_id, f.occurred_at
  FROM fold_input f
 WHERE f.type = 'AccessGateApplied' AND f.subject IS NOT NULL
 ORDER BY f.subject, coalesce(f.bundle_id, ''), f.payload ->> 'feature', f.position DESC
ON CONFLICT (log_id, subject, bundle_id, feature) DO UPDATE
   SET state = excluded.state, policy_version = excluded.policy_version, basis = excluded.basis,
       position = excluded.position, event_id = excluded.event_id, occurred_at = excluded.occurred_at
 WHERE g.position < excluded.position;
