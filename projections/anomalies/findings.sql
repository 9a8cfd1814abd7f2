-- The range's findings ($1 log; $2 positions, $3 kinds, $4 event ids, $5 subjects, $6 sources,
-- $7 details as format() templates, $8 and $9 the times they print (%1$s, %2$s; %3$s the interval
-- from the second to the first), $10 and $11 a condition (kept only when the first time is after
-- the second, plus a calendar year for occurred-in-future; none when NULL), $12 the evidence as an
-- array literal, $13 the fact it was judged without (NULL: none)). The times are printed and compared here, as PostgreSQL prints and compares them.
INSERT INTO findings (log_id, position, kind, event_id, subject, source, detail, evidence, needs_review)
SELECT $1, position::bigint, kind, event_id::uuid, subject, source,
       format(detail, first_time::timestamptz, second_time::timestamptz,
              date_trunc('second', first_time::timestamptz - second_time::timestamptz)),
       evidence::bigint[], needs_review
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
              $11::text[], $12::text[], $13::text[])
       AS r(position, kind, event_id, subject, source, detail, first_time, second_time, after_time, before_time, evidence,
            needs_review)
 WHERE after_time IS NULL
    OR after_time::timestamptz > before_time::timestamptz
                                 + CASE WHEN kind = 'occurred-in-future' THEN interval '1 year' ELSE interval '0' END
ON CONFLICT DO NOTHING;
