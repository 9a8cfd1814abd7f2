-- Stores the changes first declared in a range ($1 log, $2 to $10 in the INSERT's order after
-- log_id); a change already stored stays as first declared.
INSERT INTO changes (log_id, change_id, bundle_id, introduced_in_version, description, age_rating_before,
                     age_rating_after, declared_at, declared_position, declared_event_id)
SELECT $1, change_id, bundle_id, introduced_in_version, description, age_rating_before, age_rating_after,
       declared_at::timestamptz, declared_position::bigint, declared_event_id::uuid
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
              $10::text[])
       AS r(change_id, bundle_id, introduced_in_version, description, age_rating_before, age_rating_after,
            declared_at, declared_position, declared_event_id)
ON CONFLICT (log_id, change_id) DO NOTHING;
