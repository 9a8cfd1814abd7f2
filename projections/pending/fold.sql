-- Folds fold_input into pending.items: open on the first ask, close on the first closing event
-- after it (by position), whichever ranges the log was cut into.
INSERT INTO items (log_id, kind, item_id, subject, bundle_id, topic, change_id, rated_app, asked_at,
                   asked_position, asked_event_id, expires_at)
SELECT DISTINCT ON (kind, item_id)
       f.log_id,
       CASE f.type WHEN 'PermissionQuestionSent' THEN 'question' ELSE 'exception' END AS kind,
       f.ref AS item_id,
       f.subject, f.bundle_id,
       CASE WHEN f.type = 'AgeExceptionRequested' THEN 'ageRatingException'
            WHEN f.payload -> 'topic' ? 'custom' THEN 'custom:' || (f.payload #>> '{topic,custom,name}')
            WHEN f.payload -> 'topic' ? 'communication' THEN 'communication'
            ELSE 'significantAppUpdate' END,
       f.payload ->> 'changeId', (f.payload ->> 'appleItemID')::bigint, f.occurred_at, f.position, f.event_id,
       (f.payload ->> 'expirationDate')::timestamptz
  FROM fold_input f
 WHERE f.type IN ('PermissionQuestionSent', 'AgeExceptionRequested')
 ORDER BY kind, item_id, f.position
ON CONFLICT (log_id, kind, item_id) DO NOTHING;

UPDATE items i
   SET closed_by = c.type, closed_position = c.position
  FROM (SELECT DISTINCT ON (x.kind, x.item_id) x.log_id, x.kind, x.item_id, f.type, f.position
          FROM fold_input f
          JOIN items x ON x.log_id = f.log_id
                      AND x.kind = CASE f.type WHEN 'AgeExceptionDecided' THEN 'exception' ELSE 'question' END
                      AND x.item_id = f.ref
                      AND x.asked_position < f.position AND x.closed_position IS NULL
         WHERE f.type IN ('ParentalAnswerReceived', 'QuestionExpired', 'PermissionQuestionFailed', 'AgeExceptionDecided')
         ORDER BY x.kind, x.item_id, f.position) c
 WHERE i.log_id = c.log_id AND i.kind = c.kind AND i.item_id = c.item_id;
