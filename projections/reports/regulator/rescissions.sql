-- The withdrawals of consent in the period (ConsentRescinded that withdraws consent: from the
-- production environment, its signature verified; decision 0062), each with the first
-- AccessGateApplied closing a feature of the same app for the same subject after it (at positions
-- up to the report's, whenever it occurred).
SELECT r.position, r.event_id::text, r.subject, to_char(r.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       extract(epoch FROM r.occurred_at)::bigint, g.position, g.event_id::text,
       extract(epoch FROM g.occurred_at - r.occurred_at)::bigint, r.jurisdiction
  FROM regulator_period r
  LEFT JOIN LATERAL (SELECT g.position, g.event_id, g.occurred_at FROM facts g
                      WHERE g.log_id = $1 AND g.type = 'AccessGateApplied' AND g.gate_state = 'closed'
                        AND g.subject = r.subject AND g.bundle_id = r.bundle_id
                        AND g.position > r.position AND g.position <= $2
                      ORDER BY g.position LIMIT 1) g ON true
 WHERE r.type = 'ConsentRescinded' AND r.answer = 'withdrawn'
 ORDER BY r.position
