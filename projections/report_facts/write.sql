-- Stores the facts rows the Swift fold made of one range (Sources/LedgerFolds/ReportFacts/), given
-- as one text array per column, $1 to $25 in the order of the INSERT's columns; then counts the
-- rows it inserted into period_counts and install_days (tables.sql). Only rows inserted now are
-- counted (RETURNING leaves out those already there), so storing a range twice counts it once.
WITH inserted AS (
INSERT INTO facts (log_id, position, event_id, type, occurred_at, subject, bundle_id, jurisdiction, environment, ref,
                   trigger, category, declaration, play_status, check_method, outcome, error, answer, channel, answered_at,
                   change_id, rated_age, gate_state, version, description)
SELECT log_id, position::bigint, event_id::uuid, type, occurred_at::timestamptz, subject, bundle_id, jurisdiction, environment, ref,
       trigger, category, declaration, play_status, check_method, outcome, error, answer, channel, answered_at::timestamptz,
       change_id, rated_age, gate_state, version, description
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
              $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
              $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[])
       AS r(log_id, position, event_id, type, occurred_at, subject, bundle_id, jurisdiction, environment, ref,
            trigger, category, declaration, play_status, check_method, outcome, error, answer, channel, answered_at,
            change_id, rated_age, gate_state, version, description)
ON CONFLICT DO NOTHING
RETURNING log_id, position, occurred_at, subject, bundle_id, jurisdiction, environment, type, trigger, category, declaration,
          play_status, error, check_method, outcome),
counted AS (
  -- Blocks of 10,000 positions: reports/regulator/period-counts.sql reads them with that number.
  INSERT INTO period_counts AS c (log_id, block, day, jurisdiction, environment, type, trigger, category, declaration,
                                  play_status, error, check_method, outcome, events, first_position)
  SELECT log_id, (position - 1) / 10000, (occurred_at AT TIME ZONE 'UTC')::date, jurisdiction, environment, type, trigger,
         category, declaration, play_status, error, check_method, outcome, count(*), min(position)
    FROM inserted
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ON CONFLICT (log_id, day, block, jurisdiction, environment, type, trigger, category, declaration, play_status, error,
               check_method, outcome)
  DO UPDATE SET events = c.events + excluded.events, first_position = least(c.first_position, excluded.first_position)),
active AS (
  INSERT INTO install_days (log_id, jurisdiction, day, subject, bundle_id, first_position)
  SELECT log_id, jurisdiction, (occurred_at AT TIME ZONE 'UTC')::date, subject, bundle_id, min(position)
    FROM inserted
   WHERE jurisdiction IS NOT NULL AND subject IS NOT NULL AND bundle_id IS NOT NULL
     AND environment IS DISTINCT FROM 'sandbox' AND environment IS DISTINCT FROM 'development'
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT DO NOTHING)
SELECT;
