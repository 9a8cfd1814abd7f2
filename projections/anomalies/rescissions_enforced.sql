-- The stored rescissions the range enforced: $2 their positions, $3 the closing gate's position,
-- $4 its event id, $5 its occurredAt.
UPDATE rescissions r
   SET enforced_position = x.gate::bigint, enforced_event_id = x.event_id::uuid, enforced_at = x.occurred_at::timestamptz
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS x(position, gate, event_id, occurred_at)
 WHERE r.log_id = $1 AND r.position = x.position::bigint AND r.enforced_position IS NULL;
