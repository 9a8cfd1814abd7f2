-- A parent's words on changes in the range ($1 log; $2 to $6 in the INSERT's order after log_id).
INSERT INTO answers (log_id, subject, position, bundle_id, change_id, answer)
SELECT $1, subject, position::bigint, bundle_id, change_id, answer
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r(subject, position, bundle_id, change_id, answer)
ON CONFLICT DO NOTHING;
