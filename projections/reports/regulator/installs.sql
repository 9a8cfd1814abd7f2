-- Coverage's installs (coverage.sql): each subject and app with an event of the report's
-- jurisdiction (the codes $5) in the period, at a position up to $2. $6 and $7 are where the
-- period's whole UTC days start and end (RegulatorQuery.wholeDays): those days come from
-- install_days (a row's first_position is the first event of that install, code and day), the
-- hours before $6 and from $7 on from facts.
CREATE TEMPORARY TABLE regulator_installs ON COMMIT DROP AS
SELECT subject, bundle_id
  FROM install_days
 WHERE log_id = $1 AND jurisdiction = ANY($5::text[]) AND first_position <= $2
   AND day >= ($6::timestamptz AT TIME ZONE 'UTC')::date AND day < ($7::timestamptz AT TIME ZONE 'UTC')::date
UNION
SELECT subject, bundle_id
  FROM facts
 WHERE log_id = $1 AND jurisdiction = ANY($5::text[]) AND position <= $2 AND subject IS NOT NULL AND bundle_id IS NOT NULL
   AND ((occurred_at >= $3 AND occurred_at < $6) OR (occurred_at >= $7 AND occurred_at < $4))
   AND environment IS DISTINCT FROM 'sandbox' AND environment IS DISTINCT FROM 'development'
