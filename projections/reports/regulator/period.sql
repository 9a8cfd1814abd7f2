-- The period's events of the report's jurisdiction that the report follows one by one, staged
-- once for the other statements: facts of log $1 at positions up to $2 that occurred in [$3, $4),
-- from production (or an app that did not say: a test environment's events are in no figure,
-- decision 0068), whose code is one of $5, the codes the jurisdiction takes in (JurisdictionScope.codes: US and
-- its subdivisions; EU, its member states and theirs), of the types the later steps list: the
-- questions, rescissions, significant changes and exception requests (report_facts' index
-- facts_listed holds just these), with the columns they read. Everything the report counts comes from period-counts.sql, the
-- installs from installs.sql. A code the catalogue does not know is in no list: scope lists such
-- events apart.
CREATE TEMPORARY TABLE regulator_period ON COMMIT DROP AS
SELECT f.position, f.event_id, f.type, f.occurred_at, f.subject, f.bundle_id, f.jurisdiction, f.ref, f.change_id, f.rated_age,
       f.answer
  FROM facts f
 WHERE f.log_id = $1 AND f.position <= $2 AND f.occurred_at >= $3 AND f.occurred_at < $4
   AND f.jurisdiction = ANY($5::text[])
   AND f.environment IS DISTINCT FROM 'sandbox' AND f.environment IS DISTINCT FROM 'development'
   AND f.type IN ('PermissionQuestionSent', 'PermissionQuestionFailed', 'ConsentRescinded', 'SignificantChangeDeclared',
                  'SignificantChangeAcknowledged', 'AgeExceptionRequested')
