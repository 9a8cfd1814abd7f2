-- The stored rows a range's fold needs (Sources/LedgerFolds/Anomalies/), one JSON array per row,
-- tagged with its table: $2 the subjects with an opened feature (their latest age signal and decline, holding
-- acknowledgments, answers), $3/$4 (subject, app or '') of openings (the latest requirement), $5/$6
-- (subject, app) of the range's events (first seen), $7 change ids and $8 apps (changes), $9
-- question ids, $10 subjects with any gate (rescissions), $11 exception ids and $12/$13 (subject,
-- appleItemID) of exception installs (exceptions), $14 the event ids opened features cite (the age
-- signals among them, at any position).
SELECT 'age', json_build_array(subject, position, occurred_at::text, category, verified_adult, approval_required,
                               event_id::text)::text
  FROM (SELECT DISTINCT ON (subject) * FROM age_signals
         WHERE log_id = $1 AND subject = ANY ($2::text[]) ORDER BY subject, position DESC) s
UNION ALL
SELECT 'cited', json_build_array(subject, position, occurred_at::text, category, verified_adult, approval_required,
                                 event_id::text)::text
  FROM age_signals WHERE log_id = $1 AND event_id = ANY ($14::uuid[])
UNION ALL
SELECT 'decline', json_build_array(subject, position)::text
  FROM (SELECT DISTINCT ON (subject) * FROM declines
         WHERE log_id = $1 AND subject = ANY ($2::text[]) ORDER BY subject, position DESC) d
UNION ALL
SELECT 'requirement', json_build_array(subject, bundle_id, position, eligible, parental_consent, adult_notification)::text
  FROM (SELECT DISTINCT ON (subject, bundle_id) * FROM requirements
         WHERE log_id = $1 AND (subject, bundle_id) IN (SELECT * FROM unnest($3::text[], $4::text[]))
         ORDER BY subject, bundle_id, position DESC) r
UNION ALL
SELECT 'first', json_build_array(subject, bundle_id, position, version_key::text, original_version_key::text, original_position)::text
  FROM first_seen WHERE log_id = $1 AND (subject, bundle_id) IN (SELECT * FROM unnest($5::text[], $6::text[]))
UNION ALL
SELECT 'change', json_build_array(change_id, bundle_id, version_key::text, description, occurred_at::text, position)::text
  FROM changes WHERE log_id = $1 AND (change_id = ANY ($7::text[]) OR bundle_id = ANY ($8::text[]))
UNION ALL
SELECT 'question', json_build_array(question_id, subject, change_id, expires_at::text, occurred_at::text, position,
                                    expired_position)::text
  FROM questions WHERE log_id = $1 AND question_id = ANY ($9::text[])
UNION ALL
SELECT 'acknowledgment', json_build_array(subject, position, change_id, handled_by, holds)::text
  FROM acknowledgments WHERE log_id = $1 AND subject = ANY ($2::text[]) AND holds
UNION ALL
SELECT 'answer', json_build_array(subject, position, bundle_id, change_id, answer)::text
  FROM answers WHERE log_id = $1 AND subject = ANY ($2::text[])
UNION ALL
SELECT 'rescission', json_build_array(position, event_id::text, subject, bundle_id, rescinded_at::text, enforcement_action,
                                      enforced_position, enforced_event_id::text, enforced_at::text, apple_item_id,
                                      reapproved_position)::text
  FROM rescissions WHERE log_id = $1 AND subject = ANY ($10::text[])
UNION ALL
SELECT 'exception', json_build_array(exception_id, subject, apple_item_id, requested_position, decided_position,
                                     approved_position)::text
  FROM exceptions
 WHERE log_id = $1
   AND (exception_id = ANY ($11::text[]) OR (subject, apple_item_id::text) IN (SELECT * FROM unnest($12::text[], $13::text[])));
