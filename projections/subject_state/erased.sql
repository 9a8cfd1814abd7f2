-- Erasure (crypto-shredding): the first SubjectErased of each subject ($1 log; $2 subjects, $3
-- positions, $4 event ids), where none is stored.
UPDATE subjects s
   SET erased = true, erased_position = e.position::bigint, erased_event_id = e.event_id::uuid
  FROM unnest($2::text[], $3::text[], $4::text[]) AS e(subject, position, event_id)
 WHERE s.log_id = $1 AND s.subject = e.subject AND s.erased_position IS NULL;
