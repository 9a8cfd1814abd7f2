-- The range's age signals ($1 log; $2 to $8 in the INSERT's order after log_id).
INSERT INTO age_signals (log_id, subject, position, occurred_at, category, verified_adult, approval_required, event_id)
SELECT $1, subject, position::bigint, occurred_at::timestamptz, category, verified_adult::boolean, approval_required::boolean,
       event_id::uuid
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
       AS r(subject, position, occurred_at, category, verified_adult, approval_required, event_id)
ON CONFLICT DO NOTHING;
