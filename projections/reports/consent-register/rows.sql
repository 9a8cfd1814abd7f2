-- The consent register report's rows (ConsentRegisterReport.swift): one JSON object per entry of
-- log $1, only subject $2's, asked (or, for a question that could not be asked, tried) at or after
-- $3 and before $4 when given, in the order items were asked (then answered, failed, expired).
-- toldAt and closedAt, how a rescission was enforced, are filled in from reports/withdrawals.sql
-- (ConsentRegisterReport+Compute.swift), with their events added to the evidence.
SELECT jsonb_build_object(
  'kind', e.kind, 'id', e.item_id, 'subject', e.subject, 'app', e.bundle_id, 'topic', e.topic,
  'changeId', e.change_id, 'ratedApp', e.rated_app, 'ratedAge', e.rated_age,
  'askedAt', to_char(e.asked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'sentVia', e.sent_via,
  'expiresAt', to_char(e.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'answer', e.status,
  'answeredAt', to_char(e.answered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'answeredBy', CASE WHEN e.answered_position IS NULL THEN NULL
                     ELSE coalesce(e.answered_by, 'not disclosed by platform') END,
  'answerChannel', e.answer_channel,
  'timeToAnswerSeconds', extract(epoch FROM e.time_to_answer)::bigint,
  'failedAt', to_char(e.failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'failedError', e.failed_error,
  'rescindedAt', to_char(e.rescinded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
  'rescindedPosition', e.rescinded_position, 'toldAt', NULL::text, 'closedAt', NULL::text,
  'evidencePositions', to_jsonb(e.evidence_positions),
  'evidenceEventIds', to_jsonb(e.evidence_event_ids))::text
  FROM entries e
 WHERE e.log_id = $1 AND ($2::text IS NULL OR e.subject = $2)
   AND ($3::timestamptz IS NULL OR coalesce(e.asked_at, e.failed_at) >= $3)
   AND ($4::timestamptz IS NULL OR coalesce(e.asked_at, e.failed_at) < $4)
 ORDER BY coalesce(e.asked_position, e.answered_position, e.failed_position, e.expired_position), e.kind, e.item_id
