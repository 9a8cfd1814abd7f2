-- Fills fold_input with the events of log $1 at positions ($2, $3] whose type is in $4, and,
-- when given, only those about subject $5 (or about no subject: changes declared for a whole app),
-- recorded by $6, or occurred (device clock) by $7. Old payload versions are upcast here, once,
-- so fold.sql sees only current schemas.
INSERT INTO fold_input
SELECT e.log_id, e.position, e.event_id, e.stream, e.type, e.schema_version, e.occurred_at,
       e.recorded_at, e.subject, e.actor_kind, e.actor_id,
       j.event #>> '{app,bundleId}', j.event #>> '{app,platform}', j.event #>> '{app,appVersion}',
       j.event #>> '{jurisdiction,code}',
       coalesce(j.event #>> '{payload,questionId}', j.event #>> '{payload,exceptionId}', j.event #>> '{payload,changeId}'),
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
