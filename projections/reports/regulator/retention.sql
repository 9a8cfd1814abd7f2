-- Retention (titled by the laws that govern the jurisdiction, RegulatorLaws.retention): the
-- RetentionApplied and SubjectErased events of the period in every jurisdiction (erasure is per
-- subject), read from the log itself, with their payloads.
SELECT e.type, e.position, e.event_id::text, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), e.subject,
       (convert_from(e.record, 'UTF8')::jsonb #> '{event,payload}')::text
  FROM ledger.events e
 WHERE e.log_id = $1 AND e.type IN ('RetentionApplied', 'SubjectErased') AND e.position <= $2
   AND e.occurred_at >= $3 AND e.occurred_at < $4
 ORDER BY e.position
