-- The range's withdrawals, enforced or not ($1 log; $2 to $12 in the INSERT's order after log_id).
INSERT INTO rescissions (log_id, position, event_id, subject, bundle_id, rescinded_at, enforcement_action,
                         enforced_position, enforced_event_id, enforced_at, apple_item_id, reapproved_position)
SELECT $1, position::bigint, event_id::uuid, subject, bundle_id, rescinded_at::timestamptz, enforcement_action,
       enforced_position::bigint, enforced_event_id::uuid, enforced_at::timestamptz, apple_item_id::bigint,
       reapproved_position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
              $11::text[], $12::text[])
       AS r(position, event_id, subject, bundle_id, rescinded_at, enforcement_action, enforced_position, enforced_event_id,
            enforced_at, apple_item_id, reapproved_position)
ON CONFLICT DO NOTHING;
