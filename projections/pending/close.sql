-- Closes the stored items a range closed: $2 kinds, $3 ids, $4 the closing event's type, $5 its
-- position.
UPDATE items i
   SET closed_by = c.type, closed_position = c.position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS c(kind, item_id, type, position)
 WHERE i.log_id = $1 AND i.kind = c.kind AND i.item_id = c.item_id;
