-- The changes first declared in the range ($1 log; $2 to $7 in the INSERT's order after log_id).
INSERT INTO changes (log_id, change_id, bundle_id, version_key, description, occurred_at, position)
SELECT $1, change_id, bundle_id, version_key::integer[], description, occurred_at::timestamptz, position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       AS r(change_id, bundle_id, version_key, description, occurred_at, position)
ON CONFLICT DO NOTHING;
