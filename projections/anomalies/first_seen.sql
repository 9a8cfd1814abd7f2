-- The installs first seen in the range ($1 log; $2 to $7 in the INSERT's order after log_id).
INSERT INTO first_seen (log_id, subject, bundle_id, position, version_key, original_version_key, original_position)
SELECT $1, subject, bundle_id, position::bigint, version_key::integer[], original_version_key::integer[], original_position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       AS r(subject, bundle_id, position, version_key, original_version_key, original_position)
ON CONFLICT DO NOTHING;
