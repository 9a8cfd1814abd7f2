-- The range's declines ($1 log; $2 subjects, $3 positions).
INSERT INTO declines (log_id, subject, position)
SELECT $1, subject, position::bigint
  FROM unnest($2::text[], $3::text[]) AS r(subject, position)
ON CONFLICT DO NOTHING;
