-- The period's events of the report's jurisdiction (and its subdivisions), staged once for the
-- other statements: facts of log $1 at positions up to $2 that occurred in [$3, $4), in
-- jurisdiction $5 or one within it (US takes in US-TX).
CREATE TEMPORARY TABLE regulator_period ON COMMIT DROP AS
SELECT f.*
  FROM facts f
 WHERE f.log_id = $1 AND f.position <= $2 AND f.occurred_at >= $3 AND f.occurred_at < $4
   AND (f.jurisdiction = $5 OR f.jurisdiction LIKE $5 || '-%')
