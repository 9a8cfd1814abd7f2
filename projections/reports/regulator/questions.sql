-- The regulator report's questions (RegulatorQuery+Consent.swift): the PermissionKit questions
-- asked (or that failed to be asked) in the period, and what became of each by the period's end
-- (events that occurred before $4, at positions up to $2): ledger.question_outcome, the consent
-- register's order, on the first answer, QuestionExpired and PermissionQuestionFailed after it; a
-- question that failed to be asked at all is 'failed'. Binds: $1 log, $2 the report's position,
-- $4 the period's end (RegulatorQuery's five values); reads regulator_period, and facts through
-- report_facts' index facts_outcomes alone (the first answer's words and time are in it).
CREATE TEMPORARY TABLE regulator_questions ON COMMIT DROP AS
SELECT q.ref, q.type, q.position, q.event_id, q.subject, q.occurred_at, q.change_id,
       CASE WHEN q.type = 'PermissionQuestionFailed' THEN 'failed'
            ELSE ledger.question_outcome(o.answer, o.expired_position IS NOT NULL, o.failed_position IS NOT NULL) END
         AS outcome,
       CASE WHEN q.type = 'PermissionQuestionSent'
            THEN extract(epoch FROM o.answered_at - q.occurred_at)::float8 END AS seconds
  FROM (SELECT DISTINCT ON (p.ref) p.ref, p.type, p.position, p.event_id, p.subject, p.occurred_at, p.change_id
          FROM regulator_period p
         WHERE p.type IN ('PermissionQuestionSent', 'PermissionQuestionFailed') AND p.ref IS NOT NULL
         ORDER BY p.ref, p.position) q
 CROSS JOIN LATERAL (
       SELECT (array_agg(o.answer ORDER BY o.position) FILTER (WHERE o.type = 'ParentalAnswerReceived'))[1] AS answer,
              (array_agg(o.answered_at ORDER BY o.position) FILTER (WHERE o.type = 'ParentalAnswerReceived'))[1] AS answered_at,
              min(o.position) FILTER (WHERE o.type = 'QuestionExpired') AS expired_position,
              min(o.position) FILTER (WHERE o.type = 'PermissionQuestionFailed') AS failed_position
         FROM facts o
        WHERE o.log_id = $1 AND o.ref = q.ref AND o.position > q.position AND o.position <= $2
          AND o.occurred_at < $4
          AND o.type IN ('ParentalAnswerReceived', 'QuestionExpired', 'PermissionQuestionFailed')) o
