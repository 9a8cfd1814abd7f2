-- ledger.stream_versions: the newest stream version in log p_log_id of each of p_streams (0 for a
-- stream with no events yet), for ledger.append_events and the owner's bulk load (decision 0042).
--
-- One backward probe of events_stream_version per stream. The row comparison is what keeps it
-- there: written as "log_id = … AND stream = …", a log the statistics have not seen yet (every
-- new log, during its first load) looks empty, and the planner walked events_occurred_at instead,
-- reading the whole log once per stream (168 s for 4,347 streams of an 80,000-event log). Only
-- an index that starts with (log_id, stream, stream_version) serves this condition, and its first
-- row at or below (log, stream, max) is the stream's newest event, or another stream's.
CREATE OR REPLACE FUNCTION ledger.stream_versions(p_log_id text, p_streams text[])
RETURNS TABLE (stream text, version bigint)
LANGUAGE sql STABLE
AS $fn$
  SELECT s.stream,
         coalesce((SELECT CASE WHEN e.log_id = p_log_id AND e.stream = s.stream THEN e.stream_version END
                     FROM ledger.events e
                    WHERE (e.log_id, e.stream, e.stream_version) <= (p_log_id, s.stream, 9223372036854775807)
                    ORDER BY e.log_id DESC, e.stream DESC, e.stream_version DESC
                    LIMIT 1), 0)
    FROM unnest(p_streams) AS s(stream)
$fn$;
