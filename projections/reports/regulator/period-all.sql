-- The events of the period by jurisdiction code (NULL: none named), straight from facts (only
-- these counts need them; staging them too tripled regulator_period), with the first position of
-- each: the report counts them all, those that named none, and lists the codes the jurisdiction
-- catalogue does not know.
SELECT jurisdiction, count(*)::bigint, min(position)
  FROM facts
 WHERE log_id = $1 AND position <= $2 AND occurred_at >= $3 AND occurred_at < $4
 GROUP BY jurisdiction
 ORDER BY jurisdiction NULLS FIRST
