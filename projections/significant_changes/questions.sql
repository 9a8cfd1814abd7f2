-- Stores the questions about a change a range asked first: $1 log, $2 question ids, $3 changes,
-- $4 subjects, $5 positions.
INSERT INTO questions (log_id, question_id, change_id, subject, position)
SELECT $1, question_id, change_id, subject, position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS r(question_id, change_id, subject, position)
ON CONFLICT (log_id, question_id) DO NOTHING;
