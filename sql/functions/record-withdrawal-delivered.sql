-- The enforcement loop's evidence (decision 0084): a ConsentRescinded that a webhook subscription's
-- receiver answered with a 2xx is recorded as a WithdrawalDelivered, the time the ledger told the
-- app, beside the AccessGateApplied that says when the app closed the feature.
--
-- ledger.withdrawal_delivered_event: what the WithdrawalDelivered of delivery p_delivery_id of log
-- p_log_id is, every member but eventId, as jsonb: built from that row of ledger.deliveries and the
-- ConsentRescinded it delivered (its stream, subject, app and jurisdiction; the rescission as its
-- causationId; deliveredAt, also its occurredAt, the attempt's start plus its latency, to the
-- millisecond, UTC). NULL when the row is not a 2xx delivery of a ConsentRescinded of the log. The
-- deliverer builds the event from it (adding an eventId, in RFC 8785 form); the record function
-- below stores nothing else.
CREATE OR REPLACE FUNCTION ledger.withdrawal_delivered_event(p_log_id text, p_delivery_id bigint) RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = ledger, pg_temp
AS $fn$
  SELECT jsonb_strip_nulls(jsonb_build_object(
           'stream', e.stream, 'type', 'WithdrawalDelivered', 'schemaVersion', 1, 'occurredAt', t.delivered_at,
           'subject', e.subject, 'actor', jsonb_build_object('kind', 'ledger'),
           'app', r.doc->'app', 'jurisdiction', r.doc->'jurisdiction', 'causationId', e.event_id::text))
         || jsonb_build_object('payload', jsonb_build_object(
           'rescissionEventId', e.event_id::text, 'rescissionPosition', e.position, 'subscriptionId', d.subscription_id,
           'deliveryId', d.delivery_id, 'attempt', d.attempt, 'status', d.status, 'deliveredAt', t.delivered_at))
    FROM ledger.deliveries d
    JOIN ledger.events e ON e.log_id = d.log_id AND e.position = d.position
    CROSS JOIN LATERAL (SELECT convert_from(e.record, 'UTF8')::jsonb->'event' AS doc) r
    CROSS JOIN LATERAL (SELECT to_char((d.attempted_at + d.latency_ms * interval '1 millisecond') AT TIME ZONE 'UTC',
                                       'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS delivered_at) t
   WHERE d.log_id = p_log_id AND d.delivery_id = p_delivery_id
     AND d.item_id = d.position::text AND d.status BETWEEN 200 AND 299
     AND e.type = 'ConsentRescinded'
$fn$;

-- ledger.record_withdrawal_delivered: stores p_event, the WithdrawalDelivered of delivery
-- p_delivery_id, when it is exactly ledger.withdrawal_delivered_event's (any eventId), through the
-- append's every check (ledger.append_events_through, which takes the type only by this function:
-- ledger.append_route_problem, decision 0056), once per delivery (its idempotency key
-- 'withdrawal-delivered:<delivery id>': the same text again answers with its position; another
-- text, CL002). The deliverer calls it in the transaction that writes the attempt; it is SECURITY
-- DEFINER, granted to consent_ledger_deliverer, which may append nothing else and cannot write an
-- event the delivery log does not vouch for.
--
-- Errors (SQLSTATE): CL004 no such 2xx delivery of a ConsentRescinded, or an event that is not the
-- one it makes; the append's otherwise.
CREATE OR REPLACE FUNCTION ledger.record_withdrawal_delivered(p_log_id text, p_delivery_id bigint, p_event text)
RETURNS TABLE ("position" bigint, event_id uuid, stream text, stream_version bigint, idempotent_replay boolean)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_expected jsonb;
  v_event    jsonb;
BEGIN
  PERFORM ledger.check_log_id(p_log_id);
  v_expected := ledger.withdrawal_delivered_event(p_log_id, p_delivery_id);
  IF v_expected IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('delivery %s of log %s is not a 2xx delivery of a ConsentRescinded', p_delivery_id, p_log_id),
      HINT = 'A WithdrawalDelivered records a receiver taking a ConsentRescinded: only such a row of ledger.deliveries has one.';
  END IF;
  BEGIN
    v_event := p_event::jsonb;
  EXCEPTION WHEN data_exception THEN
    v_event := NULL;
  END;
  IF jsonb_typeof(v_event) IS DISTINCT FROM 'object' OR v_event - 'eventId' <> v_expected THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('the event is not the WithdrawalDelivered of delivery %s of log %s', p_delivery_id, p_log_id),
      DETAIL = format('expected, with an eventId: %s', v_expected),
      HINT = 'Build it from ledger.withdrawal_delivered_event(log, delivery): nothing else is stored.';
  END IF;
  RETURN QUERY SELECT * FROM ledger.append_events_through('ledger.record_withdrawal_delivered', p_log_id, ARRAY[p_event], NULL,
                                                          'withdrawal-delivered:' || p_delivery_id, NULL);
END
$fn$;
