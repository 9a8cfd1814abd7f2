-- Merges what a range adds per change and subject ($1 log, $2 to $15 in the INSERT's order after
-- log_id; a group whose position is NULL was not in the range): the first question where none is
-- stored, the latest answer where it is later than the stored one, the first acknowledgment where
-- none is stored.
INSERT INTO subjects AS s (log_id, change_id, subject, question_id, asked_at, asked_position, asked_event_id,
                           answer, answered_at, answered_position, answered_event_id,
                           acknowledged_at, acknowledged_position, acknowledged_event_id, handled_by)
SELECT $1, change_id, subject, question_id, asked_at::timestamptz, asked_position::bigint, asked_event_id::uuid,
       answer, answered_at::timestamptz, answered_position::bigint, answered_event_id::uuid,
       acknowledged_at::timestamptz, acknowledged_position::bigint, acknowledged_event_id::uuid, handled_by
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
              $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
       AS r(change_id, subject, question_id, asked_at, asked_position, asked_event_id,
            answer, answered_at, answered_position, answered_event_id,
            acknowledged_at, acknowledged_position, acknowledged_event_id, handled_by)
ON CONFLICT (log_id, change_id, subject) DO UPDATE SET
  question_id = CASE WHEN s.asked_position IS NULL AND excluded.asked_position IS NOT NULL
                     THEN excluded.question_id ELSE s.question_id END,
  asked_at = CASE WHEN s.asked_position IS NULL AND excluded.asked_position IS NOT NULL
                  THEN excluded.asked_at ELSE s.asked_at END,
  asked_event_id = CASE WHEN s.asked_position IS NULL AND excluded.asked_position IS NOT NULL
                        THEN excluded.asked_event_id ELSE s.asked_event_id END,
  asked_position = coalesce(s.asked_position, excluded.asked_position),
  answer = CASE WHEN excluded.answered_position > coalesce(s.answered_position, 0)
                THEN excluded.answer ELSE s.answer END,
  answered_at = CASE WHEN excluded.answered_position > coalesce(s.answered_position, 0)
                     THEN excluded.answered_at ELSE s.answered_at END,
  answered_event_id = CASE WHEN excluded.answered_position > coalesce(s.answered_position, 0)
                           THEN excluded.answered_event_id ELSE s.answered_event_id END,
  answered_position = greatest(s.answered_position, excluded.answered_position),
  acknowledged_at = CASE WHEN s.acknowledged_position IS NULL AND excluded.acknowledged_position IS NOT NULL
                         THEN excluded.acknowledged_at ELSE s.acknowledged_at END,
  acknowledged_event_id = CASE WHEN s.acknowledged_position IS NULL AND excluded.acknowledged_position IS NOT NULL
                               THEN excluded.acknowledged_event_id ELSE s.acknowledged_event_id END,
  handled_by = CASE WHEN s.acknowledged_position IS NULL AND excluded.acknowledged_position IS NOT NULL
                    THEN excluded.handled_by ELSE s.handled_by END,
  acknowledged_position = coalesce(s.acknowledged_position, excluded.acknowledged_position);
