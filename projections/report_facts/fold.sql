-- Folds fold_input into report_facts.facts: one row per event, its facts read from its own payload.
-- The one look at another event: a question naming no change is linked to the change declared for
-- its app before it (by position) with the same description, as consent_register does.
INSERT INTO facts (log_id, position, event_id, type, occurred_at, subject, bundle_id, jurisdiction, ref,
                   trigger, category, declaration, play_status, error, answer, channel, answered_at,
                   change_id, rated_age, gate_state, version, description)
SELECT f.log_id, f.position, f.event_id, f.type, f.occurred_at,
       CASE WHEN f.type = 'SubjectErased' THEN coalesce(f.subject, f.payload ->> 'subjectId') ELSE f.subject END,
       CASE WHEN f.type = 'ConsentRescinded' THEN f.payload ->> 'bundleId' ELSE f.bundle_id END,
       f.jurisdiction, f.ref,
       f.payload ->> 'trigger',
       CASE WHEN f.type IN ('AgeRangeShared', 'PlayAgeSignalReceived') THEN f.derived ->> 'legalCategory' END,
       CASE WHEN f.type = 'AgeRangeShared' THEN coalesce(f.payload ->> 'ageRangeDeclaration', 'none') END,
       f.payload ->> 'userStatus',
       CASE WHEN f.type IN ('AgeRangeRequestFailed', 'PermissionQuestionFailed') THEN f.payload ->> 'error' END,
       CASE f.type WHEN 'ParentalAnswerReceived' THEN f.payload ->> 'answer'
                   WHEN 'AgeExceptionDecided' THEN f.payload ->> 'decision' END,
       CASE f.type WHEN 'PermissionQuestionSent' THEN f.payload ->> 'sentVia'
                   WHEN 'ParentalAnswerReceived' THEN f.payload ->> 'channel'
                   WHEN 'AgeExceptionDecided' THEN f.payload ->> 'channel' END,
       CASE f.type WHEN 'ParentalAnswerReceived' THEN (f.payload ->> 'receivedAt')::timestamptz
                   WHEN 'AgeExceptionDecided' THEN (f.payload ->> 'decidedAt')::timestamptz END,
       CASE WHEN f.type = 'PermissionQuestionSent' THEN f.payload ->> 'changeId' END,
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
                  'PlayAgeSignalReceived', 'OperatorDecision', 'RetentionApplied', 'SubjectErased')
ON CONFLICT DO NOTHING;

-- Significant-update questions that name no change: the latest change declared for the app before
-- the question with the same description.
UPDATE facts q
   SET change_id = (SELECT c.ref FROM facts c
                     WHERE c.log_id = q.log_id AND c.type = 'SignificantChangeDeclared'
                       AND c.bundle_id = q.bundle_id AND c.position < q.position
                       AND c.description = f.payload #>> '{topic,significantAppUpdate,description}'
                     ORDER BY c.position DESC LIMIT 1)
  FROM fold_input f
 WHERE f.type = 'PermissionQuestionSent' AND f.payload ->> 'changeId' IS NULL
   AND f.payload -> 'topic' ? 'significantAppUpdate'
   AND q.log_id = f.log_id AND q.position = f.position;
