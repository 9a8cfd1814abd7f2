-- The rule findings of the anomalies projection about events of the period, with the event each
-- relates to.
SELECT x.kind, x.position, x.event_id::text, x.subject, to_char(p.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), x.detail,
       x.related_position, r.event_id::text
  FROM findings x
  JOIN regulator_period p ON p.position = x.position
  LEFT JOIN facts r ON r.log_id = $1 AND r.position = x.related_position
 WHERE x.log_id = $1 AND x.source = 'rule' AND x.position <= $2
 ORDER BY x.position, x.kind
