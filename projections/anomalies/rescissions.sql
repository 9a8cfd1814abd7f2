-- The range's rescissions, enforced or not ($1 log; $2 to $10 in the INSERT's order after log_id).
INSERT INTO rescissions (log_id, position, event_id, subject, bundle_id, rescinded_at, enforcement_action,
                         enforced_position, enforced_event_id, enforced_at)
SELECT $1, position::bigint, event_id::uuid, subject, bundle_id, rescinded_at::timestamptz, enforcement_action,
       enforced_position::bigint, enforced_event_id::uuid, enforced_at::timestamptz
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
       AS r(position, event_id, subject, bundle_id, rescinded_at, enforcement_action, enforced_position, enforced_event_id,
            enforced_at)
ON CONFLICT DO NOTHING;
