-- The events of the period in the report's jurisdiction.
SELECT count(*)::bigint FROM regulator_period
