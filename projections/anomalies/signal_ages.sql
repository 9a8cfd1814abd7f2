-- Per opening with an age signal before it, how long before the opening the signal occurred, in
-- seconds: $2 openings' positions, $3 subjects, $4 signals' positions, $5 the openings' and $6 the
-- signals' occurredAt.
INSERT INTO signal_ages (log_id, position, subject, signal_position, age_seconds)
SELECT $1, position::bigint, subject, signal_position::bigint,
       extract(epoch FROM opened_at::timestamptz - signal_at::timestamptz)::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS r(position, subject, signal_position, opened_at, signal_at)
ON CONFLICT DO NOTHING;
