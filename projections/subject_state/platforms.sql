-- The latest age signal per subject and platform ($1 log; $2 to $9 in the INSERT's order after
-- log_id), where it is later than the stored one.
INSERT INTO platform_signals AS p (log_id, subject, platform, event_type, outcome, age_category, position, event_id, occurred_at)
SELECT $1, subject, platform, event_type, outcome, age_category, position::bigint, event_id::uuid, occurred_at::timestamptz
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
       AS r(subject, platform, event_type, outcome, age_category, position, event_id, occurred_at)
ON CONFLICT (log_id, subject, platform) DO UPDATE
   SET event_type = excluded.event_type, outcome = excluded.outcome, age_category = excluded.age_category,
       position = excluded.position, event_id = excluded.event_id, occurred_at = excluded.occurred_at
 WHERE p.position < excluded.position;
