-- Age signals: requests by trigger, responses by category and declaration, declines, failures,
-- Play statuses, counted per combination (RegulatorQuery+Period.swift sorts them out).
SELECT type, trigger, category, declaration, play_status, error, count(*)::bigint
  FROM regulator_period
 WHERE type IN ('AgeRangeRequested', 'AgeRangeShared', 'AgeRangeDeclined', 'AgeRangeRequestFailed',
                         'PlayAgeSignalReceived')
 GROUP BY 1, 2, 3, 4, 5, 6
