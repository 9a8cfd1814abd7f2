-- Answered questions per time-to-answer bucket: $6 holds the buckets' lower bounds after the first
-- (RegulatorVocabulary.timeToAnswerBuckets), so bucket 0 is below the second bound.
SELECT width_bucket(seconds, $6::float8[]), count(*)::bigint
  FROM regulator_questions WHERE seconds IS NOT NULL GROUP BY 1
