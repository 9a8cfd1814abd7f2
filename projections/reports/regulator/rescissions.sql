-- The withdrawals of consent in the period (ConsentRescinded that withdraws consent: from the
-- production environment, its signature verified; decision 0062). How each was enforced (told,
-- closed) is reports/withdrawals.sql's.
SELECT r.position, r.event_id::text, r.subject, to_char(r.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       extract(epoch FROM r.occurred_at)::bigint, r.jurisdiction
  FROM regulator_period r
 WHERE r.type = 'ConsentRescinded' AND r.answer = 'withdrawn'
 ORDER BY r.position
