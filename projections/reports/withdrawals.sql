-- How each withdrawal of consent was enforced (decision 0084), for the ConsentRescinded of log $1
-- at positions $3 (bigint[]), as of position $2: when the ledger told the app (the first
-- WithdrawalDelivered naming it, by position: its deliveredAt) and when the app closed the feature
-- (the first AccessGateApplied closing a feature of the same app for the same subject after it,
-- whenever it occurred), each with its position and event id, and how long after the rescission's
-- occurredAt, in whole seconds (rounded to the nearest, as `explain` rounds the time to enforcement).
-- The regulator report and the consent register both read it: the one place the loop's times are
-- found.
SELECT r.position,
       t.position, t.event_id::text, to_char(t.answered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       extract(epoch FROM t.answered_at - r.occurred_at)::bigint,
       g.position, g.event_id::text, to_char(g.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       extract(epoch FROM g.occurred_at - r.occurred_at)::bigint
  FROM facts r
  LEFT JOIN LATERAL (SELECT t.position, t.event_id, t.answered_at FROM facts t
                      WHERE t.log_id = $1 AND t.ref = r.event_id::text AND t.type = 'WithdrawalDelivered' AND t.position <= $2
                      ORDER BY t.position LIMIT 1) t ON true
  LEFT JOIN LATERAL (SELECT g.position, g.event_id, g.occurred_at FROM facts g
                      WHERE g.log_id = $1 AND g.type = 'AccessGateApplied' AND g.gate_state = 'closed'
                        AND g.subject = r.subject AND g.bundle_id = r.bundle_id
                        AND g.position > r.position AND g.position <= $2
                      ORDER BY g.position LIMIT 1) g ON true
 WHERE r.log_id = $1 AND r.position = ANY($3::bigint[]) AND r.type = 'ConsentRescinded'
 ORDER BY r.position
