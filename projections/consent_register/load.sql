-- The stored entries a range touches ($2 kinds, $3 ids) and the stored, unrescinded approvals of
-- the subjects it rescinds for ($4), for the Swift fold (Sources/LedgerFolds/ConsentRegister/):
-- every column the fold writes, as one JSON array per entry, in write.sql's order.
SELECT json_build_array(kind, item_id, subject, bundle_id, topic, change_id, rated_app::text, rated_age,
                        asked_at::text, asked_position, asked_event_id::text, sent_via, expires_at::text,
                        answer, answer_channel, answered_at::text, answered_position, answered_event_id::text,
                        answered_by, guardian_authenticated::text, answers_received,
                        expired_at::text, expired_position, expired_event_id::text,
                        failed_error, failed_position, failed_event_id::text, failed_at::text,
                        rescinded_at::text, rescinded_position, rescinded_event_id::text)::text
  FROM entries
 WHERE log_id = $1
   AND ((kind, item_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))
        OR (subject = ANY ($4::text[]) AND answer = 'approval' AND rescinded_position IS NULL));
