-- Fills fold_input with the events of log $1 at positions ($2, $3] whose type is in $4, and,
-- when given, only those about subject $5 (or about no subject: changes declared for a whole app),
-- recorded by $6, or occurred (device clock) by $7. Old payload versions are upcast here, once,
-- so fold.sql sees only current schemas.
--
-- The domain rules every fold shares are applied here, once, so no fold writes them again:
-- - a question's topic (significantAppUpdate, communication, custom:<name>);
-- - which significant change a question asks about: the changeId it names, or else the change
--   declared for the same app before the question (by position) whose exact description its
--   significant-update topic carries, each change as first declared (the latest such change when
--   several match). The declarations are looked up in the log, with the same filter as the range,
--   so a question resolves alike whichever range it is staged in (catch-up, rebuild, time travel).
WITH declared AS MATERIALIZED (
  -- Each change as first declared, among the declarations the filter takes. Read only when the
  -- range holds a question that names no change.
  SELECT DISTINCT ON (d.event #>> '{payload,changeId}')
         d.event #>> '{payload,changeId}' AS change_id, d.event #>> '{app,bundleId}' AS bundle_id,
         d.event #>> '{payload,description}' AS description, d.position
    FROM (SELECT e.position, convert_from(e.record, 'UTF8')::jsonb -> 'event' AS event
            FROM ledger.events e
           WHERE e.log_id = $1 AND e.type = 'SignificantChangeDeclared' AND e.position <= $3
             AND ($5::text IS NULL OR e.subject = $5 OR e.subject IS NULL)
             AND ($6::timestamptz IS NULL OR e.recorded_at <= $6)
             AND ($7::timestamptz IS NULL OR e.occurred_at <= $7)) d
   ORDER BY d.event #>> '{payload,changeId}', d.position)
INSERT INTO fold_input
SELECT e.log_id, e.position, e.event_id, e.stream, e.type, e.schema_version, e.occurred_at,
       e.recorded_at, e.subject, e.actor_kind, e.actor_id,
       j.event #>> '{app,bundleId}', j.event #>> '{app,platform}', j.event #>> '{app,appVersion}',
       j.event #>> '{jurisdiction,code}', j.event #>> '{app,environment}',
       coalesce(j.event #>> '{payload,questionId}', j.event #>> '{payload,exceptionId}', j.event #>> '{payload,changeId}'),
       CASE WHEN e.type IN ('SignificantChangeDeclared', 'SignificantChangeAcknowledged') THEN j.event #>> '{payload,changeId}'
            WHEN e.type = 'PermissionQuestionSent' THEN
              coalesce(j.event #>> '{payload,changeId}',
                       (SELECT c.change_id FROM declared c
                         WHERE c.bundle_id = j.event #>> '{app,bundleId}' AND c.position < e.position
                           AND c.description = j.event #>> '{payload,topic,significantAppUpdate,description}'
                         ORDER BY c.position DESC LIMIT 1)) END,
       CASE WHEN e.type = 'PermissionQuestionSent' THEN
              CASE WHEN j.event -> 'payload' -> 'topic' ? 'custom' THEN 'custom:' || (j.event #>> '{payload,topic,custom,name}')
                   WHEN j.event -> 'payload' -> 'topic' ? 'communication' THEN 'communication'
                   ELSE 'significantAppUpdate' END
            WHEN e.type = 'AgeExceptionRequested' THEN 'ageRatingException' END,
       CASE WHEN e.type = 'AgeRangeShared' AND e.schema_version = 1
            THEN ledger.upcast_age_range_shared_v1(j.event -> 'payload')
            ELSE j.event -> 'payload' END,
       j.event -> 'derived'
  FROM ledger.events e
 -- OFFSET 0 keeps the subquery from being flattened: flattened, the record would be parsed
 -- once per reference below (seven times), not once.
 CROSS JOIN LATERAL (SELECT convert_from(e.record, 'UTF8')::jsonb -> 'event' AS event OFFSET 0) j
 WHERE e.log_id = $1 AND e.position > $2 AND e.position <= $3
   AND e.type = ANY ($4::text[])
   AND ($5::text IS NULL OR e.subject = $5 OR e.subject IS NULL)
   AND ($6::timestamptz IS NULL OR e.recorded_at <= $6)
   AND ($7::timestamptz IS NULL OR e.occurred_at <= $7)
