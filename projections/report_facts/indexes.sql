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
-- The regulator report stages the period's events it lists one by one (questions, rescissions,
-- significant changes, exception requests; reports/regulator/period.sql), a few percent of the
-- period's rows; its counts come from period_counts.
CREATE INDEX facts_listed ON facts (log_id, occurred_at)
  WHERE type IN ('PermissionQuestionSent', 'PermissionQuestionFailed', 'ConsentRescinded', 'SignificantChangeDeclared',
                 'SignificantChangeAcknowledged', 'AgeExceptionRequested');
-- What became of each question and exception, read from the index alone (no visit to the table).
CREATE INDEX facts_outcomes ON facts (log_id, ref, position) INCLUDE (type, occurred_at, answer, channel, answered_at)
  WHERE type IN ('ParentalAnswerReceived', 'QuestionExpired', 'PermissionQuestionFailed', 'AgeExceptionDecided')
    AND ref IS NOT NULL;
