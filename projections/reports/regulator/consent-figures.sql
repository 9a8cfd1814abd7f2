-- The consent figures over regulator_questions (questions.sql): sent, each outcome, and the time
-- to answer (how many answered, the median and the 95th percentile in seconds).
SELECT count(*) FILTER (WHERE type = 'PermissionQuestionSent')::bigint,
       count(*) FILTER (WHERE outcome = 'approval')::bigint, count(*) FILTER (WHERE outcome = 'denial')::bigint,
       count(*) FILTER (WHERE outcome = 'expired')::bigint, count(*) FILTER (WHERE outcome = 'failed')::bigint,
       count(*) FILTER (WHERE outcome = 'pending')::bigint, count(seconds)::bigint,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds))::bigint,
       round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds))::bigint
  FROM regulator_questions
