-- The stored installs the range learnt the original app version of: $2 subjects, $3 apps, $4 the
-- version keys, $5 the positions that reported them.
UPDATE first_seen f
   SET original_version_key = x.version_key::integer[], original_position = x.position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS x(subject, bundle_id, version_key, position)
 WHERE f.log_id = $1 AND f.subject = x.subject AND f.bundle_id = x.bundle_id AND f.original_version_key IS NULL;
