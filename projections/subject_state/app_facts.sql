-- What the device and the stores said of each app: the latest event per subject, app and fact ($1
-- log; $2 to $9 in the INSERT's order after log_id; detail as an array literal), where it is later
-- than the stored one.
INSERT INTO app_facts AS a (log_id, subject, bundle_id, fact, value, detail, position, event_id, occurred_at)
SELECT $1, subject, bundle_id, fact, value, detail::text[], position::bigint, event_id::uuid, occurred_at::timestamptz
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
       AS r(subject, bundle_id, fact, value, detail, position, event_id, occurred_at)
ON CONFLICT (log_id, subject, bundle_id, fact) DO UPDATE
   SET value = excluded.value, detail = excluded.detail, position = excluded.position, event_id = excluded.event_id,
       occurred_at = excluded.occurred_at
 WHERE a.position < excluded.position;
