-- Rule age-signal-expired: the period's openings of a feature whose subject's latest age signal
-- before them (anomalies.signal_ages) occurred more than the policy's re-check interval ($6, in
-- seconds) before the opening. Run only when the policy sets an interval.
SELECT g.position, g.event_id::text, g.subject, to_char(g.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       s.signal_position, f.event_id::text, s.age_seconds, g.jurisdiction
  FROM regulator_period g
  JOIN signal_ages s ON s.log_id = $1 AND s.position = g.position
  JOIN facts f ON f.log_id = $1 AND f.position = s.signal_position
 WHERE g.type = 'AccessGateApplied' AND g.gate_state = 'open' AND s.age_seconds > $6
 ORDER BY g.position
