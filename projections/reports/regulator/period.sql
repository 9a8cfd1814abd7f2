-- The period's events of the report's jurisdiction, staged once for the other statements: facts of
-- log $1 at positions up to $2 that occurred in [$3, $4), whose code is one of $5, the codes the
-- jurisdiction takes in (JurisdictionScope.codes: US and its subdivisions; EU, its member states
-- and theirs). A code the catalogue does not know is in no list: scope lists such events apart.
CREATE TEMPORARY TABLE regulator_period ON COMMIT DROP AS
SELECT f.*
  FROM facts f
 WHERE f.log_id = $1 AND f.position <= $2 AND f.occurred_at >= $3 AND f.occurred_at < $4
   AND f.jurisdiction = ANY($5::text[])
