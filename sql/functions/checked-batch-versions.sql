-- ledger.checked_batch_versions: each event of a batch (p_streams in batch order) with the stream
-- version it takes in log p_log_id (its stream's newest version plus its rank among the batch's
-- events of that stream) and its expected version (p_expected). A plain SQL function that the
-- planner inlines into the statement that calls it; each stream's newest version is one probe of
-- events_stream, as in ledger.stream_versions.
CREATE OR REPLACE FUNCTION ledger.checked_batch_versions(p_log_id text, p_streams text[], p_expected text[])
RETURNS TABLE (ord bigint, stream text, stream_version bigint, expected text)
LANGUAGE sql STABLE
AS $fn$
  SELECT u.ord, u.stream,
         cur.version + row_number() OVER (PARTITION BY u.stream ORDER BY u.ord),
         u.expected
    FROM unnest(p_streams, p_expected) WITH ORDINALITY AS u(stream, expected, ord)
    JOIN (SELECT s.stream,
                 coalesce((SELECT CASE WHEN e.log_id = p_log_id AND e.stream = s.stream THEN e.stream_version END
                             FROM ledger.events e
                            WHERE (e.log_id, e.stream, e.stream_version) <= (p_log_id, s.stream, 9223372036854775807)
                            ORDER BY e.log_id DESC, e.stream DESC, e.stream_version DESC
                            LIMIT 1), 0) AS version
            FROM (SELECT DISTINCT x.stream FROM unnest(p_streams) AS x(stream)) s) cur ON cur.stream = u.stream
$fn$;
