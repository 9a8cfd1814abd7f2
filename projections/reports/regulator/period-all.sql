-- The events of the period in every jurisdiction, and those that name none, straight from facts
-- (only these counts need them; staging them too tripled regulator_period).
SELECT count(*)::bigint, count(*) FILTER (WHERE jurisdiction IS NULL)::bigint
  FROM facts
 WHERE log_id = $1 AND position <= $2 AND occurred_at >= $3 AND occurred_at < $4
