-- Age-rating exceptions requested in the period and their first decision by its end, counted per
-- rating, decision and channel.
SELECT coalesce(r.rated_age, 'not stated'), d.answer, d.channel, count(*)::bigint
  FROM (SELECT DISTINCT ON (p.ref) p.ref, p.position, p.rated_age FROM regulator_period p
         WHERE p.type = 'AgeExceptionRequested' AND p.ref IS NOT NULL
         ORDER BY p.ref, p.position) r
  LEFT JOIN LATERAL (SELECT o.answer, o.channel FROM facts o
                      WHERE o.log_id = $1 AND o.ref = r.ref AND o.type = 'AgeExceptionDecided'
                        AND o.position > r.position AND o.position <= $2 AND o.occurred_at < $4
                      ORDER BY o.position LIMIT 1) d ON true
 GROUP BY 1, 2, 3
