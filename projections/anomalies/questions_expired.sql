-- The stored questions the range expired: $2 question ids, $3 the expiries' positions.
UPDATE questions q
   SET expired_position = x.position::bigint
  FROM unnest($2::text[], $3::text[]) AS x(question_id, position)
 WHERE q.log_id = $1 AND q.question_id = x.question_id AND q.expired_position IS NULL;
