-- The subjects erased at positions up to the report's, read from the log (erasures are few).
SELECT coalesce(e.subject, convert_from(e.record, 'UTF8')::jsonb #>> '{event,payload,subjectId}')
  FROM ledger.events e
 WHERE e.log_id = $1 AND e.type = 'SubjectErased' AND e.position <= $2
