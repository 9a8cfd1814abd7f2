-- Age signals: requests by trigger, responses by category and declaration, declines, failures,
-- Play statuses, the apps' own age checks and third-party verifications by method and outcome,
-- counted per combination (RegulatorQuery+Period.swift sorts them out).
SELECT type, trigger, category, declaration, play_status, error, check_method, check_outcome, count(*)::bigint
  FROM regulator_period
 WHERE type IN ('AgeRangeRequested', 'AgeRangeShared', 'AgeRangeDeclined', 'AgeRangeRequestFailed',
                'PlayAgeSignalReceived', 'AgeVerificationCompleted')
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
