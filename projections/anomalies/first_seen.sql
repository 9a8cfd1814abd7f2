-- The installs first seen in the range ($1 log; $2 to $5 in the INSERT's order after log_id).
INSERT INTO first_seen (log_id, subject, bundle_id, position, version_key)
SELECT $1, subject, bundle_id, position::bigint, version_key::integer[]
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS r(subject, bundle_id, position, version_key)
ON CONFLICT DO NOTHING;
