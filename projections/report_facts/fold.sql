-- Folds fold_input into report_facts.facts: one row per event, its facts read from its own payload
-- and from fold_input's resolved columns (a question's change: common/fill-fold-input.sql); then
-- counts the rows it inserted into period_counts and install_days (tables.sql). Only rows inserted
-- now are counted (RETURNING leaves out those already there), so folding a range twice counts it once.
WITH inserted AS (
INSERT INTO facts (log_id, position, event_id, type, occurred_at, subject, bundle_id, jurisdiction, environment, ref,
                   trigger, category, declaration, play_status, check_method, check_outcome, error, answer, channel, answered_at,
                   change_id, rated_age, gate_state, version, description)
SELECT f.log_id, f.position, f.event_id, f.type, f.occurred_at,
       CASE WHEN f.type = 'SubjectErased' THEN coalesce(f.subject, f.payload ->> 'subjectId') ELSE f.subject END,
       CASE WHEN f.type = 'ConsentRescinded' THEN f.payload ->> 'bundleId' ELSE f.bundle_id END,
       f.jurisdiction, f.environment, f.ref,
       f.payload ->> 'trigger',
       CASE WHEN f.type IN ('AgeRangeShared', 'PlayAgeSignalReceived') THEN f.derived ->> 'legalCategory' END,
       CASE WHEN f.type = 'AgeRangeShared' THEN coalesce(f.payload ->> 'ageRangeDeclaration', 'none') END,
       f.payload ->> 'userStatus',
       CASE WHEN f.type = 'AgeVerificationCompleted' THEN f.payload ->> 'method' END,
       CASE WHEN f.type = 'AgeVerificationCompleted' THEN f.payload ->> 'outcome' END,
       CASE WHEN f.type IN ('AgeRangeRequestFailed', 'PermissionQuestionFailed') THEN f.payload ->> 'error' END,
       CASE f.type WHEN 'ParentalAnswerReceived' THEN f.payload ->> 'answer'
                   WHEN 'AgeExceptionDecided' THEN f.payload ->> 'decision' END,
       CASE f.type WHEN 'PermissionQuestionSent' THEN f.payload ->> 'sentVia'
                   WHEN 'ParentalAnswerReceived' THEN f.payload ->> 'channel'
                   WHEN 'AgeExceptionDecided' THEN f.payload ->> 'channel' END,
       CASE f.type WHEN 'ParentalAnswerReceived' THEN (f.payload ->> 'receivedAt')::timestamptz
                   WHEN 'AgeExceptionDecided' THEN (f.payload ->> 'decidedAt')::timestamptz END,
       CASE WHEN f.type = 'PermissionQuestionSent' THEN f.change_id END,
       CASE WHEN f.type = 'AgeExceptionRequested' THEN f.derived ->> 'ratingLabel' END,
       CASE WHEN f.type = 'AccessGateApplied' THEN f.payload ->> 'state' END,
       CASE WHEN f.type = 'SignificantChangeDeclared' THEN f.payload ->> 'introducedInVersion' END,
       CASE WHEN f.type = 'SignificantChangeDeclared' THEN f.payload ->> 'description' END
  FROM fold_input f
 WHERE f.type IN ('EligibilityChecked', 'AgeRangeRequested', 'AgeRangeShared', 'AgeRangeDeclined',
                  'AgeRangeRequestFailed', 'SignificantChangeDeclared', 'SignificantChangeAcknowledged',
                  'PermissionQuestionSent', 'PermissionQuestionFailed', 'ParentalAnswerReceived',
                  'QuestionExpired', 'ConsentRescinded', 'AccessGateApplied', 'DeviceRatingLimitObserved',
                  'InstallAttempted', 'AgeExceptionRequested', 'AgeExceptionDecided', 'ApproveInPersonFailed',
                  'PlayAgeSignalReceived', 'AgeVerificationCompleted', 'OperatorDecision', 'RetentionApplied',
                  'SubjectErased')
ON CONFLICT DO NOTHING
RETURNING log_id, position, occurred_at, subject, bundle_id, jurisdiction, environment, type, trigger, category, declaration,
          play_status, error, check_method, check_outcome),
counted AS (
  -- Blocks of 10,000 positions: reports/regulator/period-counts.sql reads them with that number.
  INSERT INTO period_counts AS c (log_id, block, day, jurisdiction, environment, type, trigger, category, declaration,
                                  play_status, error, check_method, check_outcome, events, first_position)
  SELECT log_id, (position - 1) / 10000, (occurred_at AT TIME ZONE 'UTC')::date, jurisdiction, environment, type, trigger,
         category, declaration, play_status, error, check_method, check_outcome, count(*), min(position)
    FROM inserted
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ON CONFLICT (log_id, day, block, jurisdiction, environment, type, trigger, category, declaration, play_status, error,
               check_method, check_outcome)
  DO UPDATE SET events = c.events + excluded.events, first_position = least(c.first_position, excluded.first_position)),
active AS (
  INSERT INTO install_days (log_id, jurisdiction, day, subject, bundle_id, first_position)
  SELECT log_id, jurisdiction, (occurred_at AT TIME ZONE 'UTC')::date, subject, bundle_id, min(position)
    FROM inserted
   WHERE jurisdiction IS NOT NULL AND subject IS NOT NULL AND bundle_id IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT DO NOTHING)
SELECT;
