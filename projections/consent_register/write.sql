-- Stores the entries a range changed, whole ($1 log; $2 to $32 in the INSERT's order after
-- log_id): the Swift fold merged the range into what load.sql read of them.
INSERT INTO entries AS e (log_id, kind, item_id, subject, bundle_id, topic, change_id, rated_app, rated_age,
                          asked_at, asked_position, asked_event_id, sent_via, expires_at,
                          answer, answer_channel, answered_at, answered_position, answered_event_id,
                          answered_by, guardian_authenticated, answers_received,
                          expired_at, expired_position, expired_event_id,
                          failed_error, failed_position, failed_event_id, failed_at,
                          rescinded_at, rescinded_position, rescinded_event_id)
SELECT $1, kind, item_id, subject, bundle_id, topic, change_id, rated_app::bigint, rated_age,
       asked_at::timestamptz, asked_position::bigint, asked_event_id::uuid, sent_via, expires_at::timestamptz,
       answer, answer_channel, answered_at::timestamptz, answered_position::bigint, answered_event_id::uuid,
       answered_by, guardian_authenticated::boolean, answers_received::integer,
       expired_at::timestamptz, expired_position::bigint, expired_event_id::uuid,
       failed_error, failed_position::bigint, failed_event_id::uuid, failed_at::timestamptz,
       rescinded_at::timestamptz, rescinded_position::bigint, rescinded_event_id::uuid
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
              $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
              $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[],
              $26::text[], $27::text[], $28::text[], $29::text[], $30::text[], $31::text[],
              $32::text[])
       AS r(kind, item_id, subject, bundle_id, topic, change_id, rated_app, rated_age,
            asked_at, asked_position, asked_event_id, sent_via, expires_at,
            answer, answer_channel, answered_at, answered_position, answered_event_id,
            answered_by, guardian_authenticated, answers_received,
            expired_at, expired_position, expired_event_id,
            failed_error, failed_position, failed_event_id, failed_at,
            rescinded_at, rescinded_position, rescinded_event_id)
ON CONFLICT (log_id, kind, item_id) DO UPDATE SET
  subject = excluded.subject, bundle_id = excluded.bundle_id, topic = excluded.topic, change_id = excluded.change_id,
  rated_app = excluded.rated_app, rated_age = excluded.rated_age, asked_at = excluded.asked_at,
  asked_position = excluded.asked_position, asked_event_id = excluded.asked_event_id, sent_via = excluded.sent_via,
  expires_at = excluded.expires_at, answer = excluded.answer, answer_channel = excluded.answer_channel,
  answered_at = excluded.answered_at, answered_position = excluded.answered_position,
  answered_event_id = excluded.answered_event_id, answered_by = excluded.answered_by,
  guardian_authenticated = excluded.guardian_authenticated, answers_received = excluded.answers_received,
  expired_at = excluded.expired_at, expired_position = excluded.expired_position,
  expired_event_id = excluded.expired_event_id, failed_error = excluded.failed_error,
  failed_position = excluded.failed_position, failed_event_id = excluded.failed_event_id, failed_at = excluded.failed_at,
  rescinded_at = excluded.rescinded_at, rescinded_position = excluded.rescinded_position,
  rescinded_event_id = excluded.rescinded_event_id;
