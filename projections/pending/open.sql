-- Stores the items a range opened (already closed when the range closed them too), one text array
-- per column, $1 to $14 in the INSERT's order. The fold opens only keys no stored row has.
INSERT INTO items (log_id, kind, item_id, subject, bundle_id, topic, change_id, rated_app, asked_at,
                   asked_position, asked_event_id, expires_at, closed_by, closed_position)
SELECT log_id, kind, item_id, subject, bundle_id, topic, change_id, rated_app::bigint, asked_at::timestamptz,
       asked_position::bigint, asked_event_id::uuid, expires_at::timestamptz, closed_by, closed_position::bigint
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
              $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
       AS r(log_id, kind, item_id, subject, bundle_id, topic, change_id, rated_app, asked_at,
            asked_position, asked_event_id, expires_at, closed_by, closed_position);
