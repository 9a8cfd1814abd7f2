-- Per exception, the range's first request (subject, app), first decision and first approval
-- ($1 log; $2 to $7 in the INSERT's order after log_id), each kept where the stored row has none.
INSERT INTO exceptions AS x (log_id, exception_id, subject, apple_item_id, requested_position, decided_position, approved_position)
SELECT $1, exception_id, subject, apple_item_id::bigint, requested_position::bigint, decided_position::bigint,
       approved_position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
       AS r(exception_id, subject, apple_item_id, requested_position, decided_position, approved_position)
ON CONFLICT (log_id, exception_id) DO UPDATE
   SET subject = coalesce(x.subject, excluded.subject),
       apple_item_id = coalesce(x.apple_item_id, excluded.apple_item_id),
       requested_position = coalesce(x.requested_position, excluded.requested_position),
       decided_position = coalesce(x.decided_position, excluded.decided_position),
       approved_position = coalesce(x.approved_position, excluded.approved_position);
