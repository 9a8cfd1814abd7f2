-- The rule findings of the anomalies projection about events of the period in the jurisdiction
-- (the codes $5), each with every event
-- it rests on (positions and event ids, in log order), and the jurisdiction the event was recorded
-- for (the policy may apply a rule to some jurisdictions only), and the fact it was judged without
-- (decision 0064; NULL: none).
SELECT x.kind, x.position, x.event_id::text, x.subject, to_char(p.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), x.detail,
       x.evidence, ARRAY(SELECT r.event_id::text FROM unnest(x.evidence) WITH ORDINALITY AS e(position, n)
                          JOIN facts r ON r.log_id = $1 AND r.position = e.position ORDER BY e.n),
       p.jurisdiction, x.needs_review
  FROM findings x
  JOIN facts p ON p.log_id = $1 AND p.position = x.position
 WHERE x.log_id = $1 AND x.source = 'rule' AND x.position <= $2
   AND p.occurred_at >= $3 AND p.occurred_at < $4 AND p.jurisdiction = ANY($5::text[])
 ORDER BY x.position, x.kind
