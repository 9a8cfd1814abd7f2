-- The range's requirements ($1 log; $2 to $7 in the INSERT's order after log_id).
INSERT INTO requirements (log_id, subject, bundle_id, position, eligible, parental_consent, adult_notification)
SELECT $1, subject, bundle_id, position::bigint, eligible::boolean, parental_consent::boolean, adult_notification::boolean
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       AS r(subject, bundle_id, position, eligible, parental_consent, adult_notification)
ON CONFLICT DO NOTHING;
