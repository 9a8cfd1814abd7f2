-- Questions per ISO week of asking (its Monday, UTC), type and outcome.
SELECT to_char(date_trunc('week', occurred_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), type, outcome, count(*)::bigint
  FROM regulator_questions GROUP BY 1, 2, 3
