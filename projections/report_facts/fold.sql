-- Folds fold_input into report_facts.facts: one row per event, its facts read from its own payload
-- and from fold_input's resolved columns (a question's change: common/fill-fold-input.sql).
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
ON CONFLICT DO NOTHING;
