-- The stored items of the keys a range touches ($2 kinds, $3 ids, one array element per key), for
-- the Swift fold (Sources/LedgerFolds/Pending/): when each was asked and whether it is closed.
SELECT kind, item_id, asked_position, closed_position IS NOT NULL
  FROM items
 WHERE log_id = $1 AND (kind, item_id) IN (SELECT * FROM unnest($2::text[], $3::text[]));
