-- The indexes of report_facts that only readers use: no fold statement reads facts. A rebuild
-- creates them after its last range, before the swap (one sort each instead of an entry per
-- inserted row); every other schema gets them with its tables.
-- A report cuts its period on the device clock, and follows questions and exceptions by id.
-- Coverage looks up each install's age range requests.
CREATE INDEX facts_requests ON facts (log_id, subject, bundle_id) INCLUDE (trigger, position, occurred_at)
  WHERE type = 'AgeRangeRequested';
CREATE INDEX facts_period ON facts (log_id, occurred_at);
CREATE INDEX facts_ref ON facts (log_id, ref) WHERE ref IS NOT NULL;
-- A rescission is enforced by the next AccessGateApplied closing the app's feature for the subject.
CREATE INDEX facts_gates ON facts (log_id, subject, position) WHERE type = 'AccessGateApplied';
