-- Every fact the rules judged each opening on ($1 log; $2 to $17 in the INSERT's order after
-- log_id): what explain shows.
INSERT INTO openings (log_id, position, subject, age_position, category, verified_adult, controls_require_approval,
                      requirement_position, consent_required, notification_required, change_id, change_position,
                      word, word_position, withdrawal_position, acknowledgment_position, needs_review)
SELECT $1, position::bigint, subject, age_position::bigint, category, verified_adult::boolean, controls_require_approval::boolean,
       requirement_position::bigint, consent_required::boolean, notification_required::boolean, change_id, change_position::bigint,
       word, word_position::bigint, withdrawal_position::bigint, acknowledgment_position::bigint, needs_review
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
              $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
       AS r(position, subject, age_position, category, verified_adult, controls_require_approval, requirement_position,
            consent_required, notification_required, change_id, change_position, word, word_position, withdrawal_position,
            acknowledgment_position, needs_review)
ON CONFLICT DO NOTHING;
