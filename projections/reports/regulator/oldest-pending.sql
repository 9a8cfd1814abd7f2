-- The question pending longest at the period's end ($4), with its age in seconds.
SELECT ref, subject, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), extract(epoch FROM $4 - occurred_at)::bigint, position, event_id::text
  FROM regulator_questions WHERE outcome = 'pending'
 ORDER BY occurred_at, position LIMIT 1
