-- The range's acknowledgments ($1 log; $2 to $6 in the INSERT's order after log_id).
INSERT INTO acknowledgments (log_id, subject, position, change_id, handled_by, holds)
SELECT $1, subject, position::bigint, change_id, handled_by, holds::boolean
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r(subject, position, change_id, handled_by, holds)
ON CONFLICT DO NOTHING;
