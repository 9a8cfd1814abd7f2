-- What became of a PermissionQuestion, given what the log holds about it by some moment: the
-- first answer (approval or denial), else 'expired' when a QuestionExpired came, else 'failed'
-- when a PermissionQuestionFailed did, else 'pending'. The one place this order is written: the
-- consent register's status (projections/consent_register/tables.sql) and the regulator report's
-- outcomes (projections/reports/regulator/questions.sql) both call it.
CREATE OR REPLACE FUNCTION ledger.question_outcome(p_answer text, p_expired boolean, p_failed boolean)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
  SELECT CASE WHEN p_answer IS NOT NULL THEN p_answer
              WHEN p_expired THEN 'expired'
              WHEN p_failed THEN 'failed'
              ELSE 'pending' END
$fn$;
