-- The questions first sent in the range, expired or not ($1 log; $2 to $8 in the INSERT's order
-- after log_id).
INSERT INTO questions (log_id, question_id, subject, change_id, expires_at, occurred_at, position, expired_position)
SELECT $1, question_id, subject, change_id, expires_at::timestamptz, occurred_at::timestamptz, position::bigint,
       expired_position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
       AS r(question_id, subject, change_id, expires_at, occurred_at, position, expired_position)
ON CONFLICT DO NOTHING;
