-- Each significant change declared in the period, or asked about or acknowledged in it: its first
-- declaration at positions up to the report's, its first notice to a store (SignificantChangeNotifiedToStore)
-- at positions up to the report's and before the period's end, the minors asked about it (regulator_questions) and
-- how many approved or denied by the period's end, and the adults whose acknowledgment of it holds.
WITH asked AS (
       SELECT change_id, count(DISTINCT subject) AS minors,
              count(DISTINCT subject) FILTER (WHERE outcome = 'approval') AS approved,
              count(DISTINCT subject) FILTER (WHERE outcome = 'denial') AS denied
         FROM regulator_questions
        WHERE type = 'PermissionQuestionSent' AND change_id IS NOT NULL
        GROUP BY change_id),
     -- Adults (by their latest age signal before it) whose acknowledgment holds (anomalies.acknowledgments:
     -- the change declared before it, a true originalAppVersion marking, no notRequired marking).
     held AS MATERIALIZED (
       SELECT p.ref AS change_id, p.subject, p.position
         FROM regulator_period p
         JOIN acknowledgments k ON k.log_id = $1 AND k.subject = p.subject AND k.position = p.position AND k.holds
        WHERE p.type = 'SignificantChangeAcknowledged' AND p.ref IS NOT NULL),
     -- Joined first (MATERIALIZED): the planner cannot guess how many are adults, and guessing
     -- few made it loop over the period's rows once per acknowledgment (90 s at 1M events).
     acknowledged AS (
       SELECT h.change_id, count(DISTINCT h.subject) AS adults
         FROM held h
        WHERE (SELECT s.category FROM age_signals s
                WHERE s.log_id = $1 AND s.subject = h.subject AND s.position < h.position
                ORDER BY s.position DESC LIMIT 1) = 'adult'
        GROUP BY h.change_id),
     ids AS (
       SELECT ref AS change_id FROM regulator_period
        WHERE type = 'SignificantChangeDeclared' AND ref IS NOT NULL
       UNION SELECT change_id FROM asked
       UNION SELECT change_id FROM acknowledged)
SELECT ids.change_id, d.bundle_id, d.version, to_char(d.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), d.position, d.event_id::text,
       to_char(n.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), n.position, n.event_id::text,
       coalesce(a.minors, 0)::bigint, coalesce(a.approved, 0)::bigint, coalesce(a.denied, 0)::bigint,
       coalesce(k.adults, 0)::bigint
  FROM ids
  LEFT JOIN LATERAL (SELECT d.bundle_id, d.version, d.occurred_at, d.position, d.event_id FROM facts d
                      WHERE d.log_id = $1 AND d.ref = ids.change_id AND d.type = 'SignificantChangeDeclared'
                        AND d.position <= $2
                      ORDER BY d.position LIMIT 1) d ON true
  LEFT JOIN LATERAL (SELECT n.occurred_at, n.position, n.event_id FROM facts n
                      WHERE n.log_id = $1 AND n.ref = ids.change_id AND n.type = 'SignificantChangeNotifiedToStore'
                        AND n.position <= $2 AND n.occurred_at < $4
                        AND n.environment IS DISTINCT FROM 'sandbox' AND n.environment IS DISTINCT FROM 'development'
                      ORDER BY n.position LIMIT 1) n ON true
  LEFT JOIN asked a ON a.change_id = ids.change_id
  LEFT JOIN acknowledged k ON k.change_id = ids.change_id
 ORDER BY d.position NULLS LAST, ids.change_id
