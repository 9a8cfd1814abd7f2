-- Every gated feature: the latest AccessGateApplied per subject, app and feature ($1 log; $2 to
-- $10 in the INSERT's order after log_id; basis as an array literal), where it is later than the
-- stored one.
INSERT INTO features AS g (log_id, subject, bundle_id, feature, state, policy_version, basis, position, event_id, occurred_at)
SELECT $1, subject, bundle_id, feature, state, policy_version, basis::uuid[], position::bigint, event_id::uuid,
       occurred_at::timestamptz
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
       AS r(subject, bundle_id, feature, state, policy_version, basis, position, event_id, occurred_at)
ON CONFLICT (log_id, subject, bundle_id, feature) DO UPDATE
   SET state = excluded.state, policy_version = excluded.policy_version, basis = excluded.basis,
       position = excluded.position, event_id = excluded.event_id, occurred_at = excluded.occurred_at
 WHERE g.position < excluded.position;
