-- Marks the anomalies among the events of log p_log_id at positions p_from .. p_to (just
-- appended): see tables/anomalies.sql for the kinds (access-opened-without-basis is marked by
-- append_events itself, from the batch). Question and exception events are found by
-- their streams (question-<questionId>, exception-<exceptionId>), which the catalogue requires,
-- so each check is a range scan of the stream index (log_id, stream, stream_version): the
-- conditions are written on stream_version so no other index looks cheaper to the planner. Called by ledger.append_events in the append's transaction.
CREATE OR REPLACE FUNCTION ledger.mark_anomalies(p_log_id text, p_from bigint, p_to bigint)
RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
  INSERT INTO ledger.anomalies (log_id, position, kind, detail, related_position)
  SELECT a.log_id, a.position, 'answer-without-question',
         format('the answer on %s has no PermissionQuestionSent before it', a.stream), NULL
    FROM ledger.events a
   WHERE a.log_id = p_log_id AND a.position BETWEEN p_from AND p_to AND a.type = 'ParentalAnswerReceived'
     AND NOT EXISTS (SELECT 1 FROM ledger.events q
                      WHERE q.log_id = a.log_id AND q.stream = a.stream
                        AND q.stream_version < a.stream_version AND q.type = 'PermissionQuestionSent')
  UNION ALL
  SELECT a.log_id, a.position, 'answer-after-expiry',
         format('answered at %s, after the question expired at %s', a.occurred_at, q.expires), q.position
    FROM ledger.events a
    JOIN LATERAL (
      SELECT q.position,
             (convert_from(q.record, 'UTF8')::jsonb #>> '{event,payload,expirationDate}')::timestamptz AS expires
        FROM ledger.events q
       WHERE q.log_id = a.log_id AND q.stream = a.stream AND q.stream_version < a.stream_version
         AND q.type = 'PermissionQuestionSent'
       ORDER BY q.log_id DESC, q.stream DESC, q.stream_version DESC LIMIT 1
    ) q ON true
   WHERE a.log_id = p_log_id AND a.position BETWEEN p_from AND p_to AND a.type = 'ParentalAnswerReceived'
     AND a.occurred_at > q.expires
  UNION ALL
  SELECT d.log_id, d.position, 'exception-decided-twice',
         format('%s was already decided at position %s', d.stream, earlier.position), earlier.position
    FROM ledger.events d
    JOIN LATERAL (
      SELECT e.position FROM ledger.events e
       WHERE e.log_id = d.log_id AND e.stream = d.stream AND e.stream_version < d.stream_version
         AND e.type = 'AgeExceptionDecided'
       ORDER BY e.log_id, e.stream, e.stream_version LIMIT 1
    ) earlier ON true
   WHERE d.log_id = p_log_id AND d.position BETWEEN p_from AND p_to AND d.type = 'AgeExceptionDecided'
  UNION ALL
  SELECT d.log_id, d.position, 'decision-without-request',
         format('the decision on %s has no AgeExceptionRequested before it', d.stream), NULL
    FROM ledger.events d
   WHERE d.log_id = p_log_id AND d.position BETWEEN p_from AND p_to AND d.type = 'AgeExceptionDecided'
     AND NOT EXISTS (SELECT 1 FROM ledger.events r
                      WHERE r.log_id = d.log_id AND r.stream = d.stream
                        AND r.stream_version < d.stream_version AND r.type = 'AgeExceptionRequested')
  ON CONFLICT DO NOTHING
$fn$;
