-- Merges what a range says of each subject it mentions ($1 log; $2 to $17 in the INSERT's order
-- after log_id; an age or controls group whose position is NULL was not in the range): the latest
-- event folded and how many, the age from the latest age signal, the parental controls from the
-- latest AgeRangeShared. Each group moves only when the range has a newer event for it; a range
-- folded twice changes nothing.
INSERT INTO subjects AS s (log_id, subject, updated_position, updated_event_id, updated_at, events_folded,
                           age_category, age_lower, age_upper, age_declaration, verified_adult, age_event_type,
                           age_position, age_event_id, age_occurred_at, parental_controls, controls_position)
SELECT $1, subject, updated_position::bigint, updated_event_id::uuid, updated_at::timestamptz, events_folded::bigint,
       age_category, age_lower::integer, age_upper::integer, age_declaration, verified_adult::boolean, age_event_type,
       age_position::bigint, age_event_id::uuid, age_occurred_at::timestamptz, parental_controls::text[],
       controls_position::bigint
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
              $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
       AS r(subject, updated_position, updated_event_id, updated_at, events_folded,
            age_category, age_lower, age_upper, age_declaration, verified_adult, age_event_type,
            age_position, age_event_id, age_occurred_at, parental_controls, controls_position)
ON CONFLICT (log_id, subject) DO UPDATE
   SET updated_position = excluded.updated_position, updated_event_id = excluded.updated_event_id,
       updated_at = excluded.updated_at, events_folded = s.events_folded + excluded.events_folded,
       age_category = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_category ELSE s.age_category END,
       age_lower = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_lower ELSE s.age_lower END,
       age_upper = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_upper ELSE s.age_upper END,
       age_declaration = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_declaration ELSE s.age_declaration END,
       verified_adult = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.verified_adult ELSE s.verified_adult END,
       age_event_type = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_event_type ELSE s.age_event_type END,
       age_position = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_position ELSE s.age_position END,
       age_event_id = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_event_id ELSE s.age_event_id END,
       age_occurred_at = CASE WHEN excluded.age_position > coalesce(s.age_position, 0) THEN excluded.age_occurred_at ELSE s.age_occurred_at END,
       parental_controls = CASE WHEN excluded.controls_position > coalesce(s.controls_position, 0)
                                THEN excluded.parental_controls ELSE s.parental_controls END,
       controls_position = CASE WHEN excluded.controls_position > coalesce(s.controls_position, 0)
                                THEN excluded.controls_position ELSE s.controls_position END
 WHERE s.updated_position < excluded.updated_position;
