-- The stored withdrawals the range answered with an approval for the app: $2 their positions, $3
-- the approval's position.
UPDATE rescissions r
   SET reapproved_position = x.approval::bigint
  FROM unnest($2::text[], $3::text[]) AS x(position, approval)
 WHERE r.log_id = $1 AND r.position = x.position::bigint AND r.reapproved_position IS NULL;
