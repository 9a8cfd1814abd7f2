-- Rule age-signal-expired: the period's openings of a feature in the jurisdiction (the codes $5)
-- whose subject's latest age signal before them (anomalies.signal_ages) occurred more than the
-- policy's re-check interval ($6, in seconds) before the opening. Run only when the policy sets an
-- interval. The openings past the interval are found first (signal_ages holds every opening), then
-- each is looked up in facts.
SELECT g.position, g.event_id::text, g.subject, to_char(g.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       s.signal_position, f.event_id::text, s.age_seconds, g.jurisdiction
  FROM signal_ages s
  JOIN facts g ON g.log_id = $1 AND g.position = s.position
  JOIN facts f ON f.log_id = $1 AND f.position = s.signal_position
 WHERE s.log_id = $1 AND s.position <= $2 AND s.age_seconds > $6
   AND g.type = 'AccessGateApplied' AND g.gate_state = 'open'
   AND g.occurred_at >= $3 AND g.occurred_at < $4 AND g.jurisdiction = ANY($5::text[])
 ORDER BY g.position
