-- The events of the period in the report's jurisdiction, by the build they came from (the
-- envelope's app.environment; NULL: not said).
SELECT environment, count(*)::bigint FROM regulator_period GROUP BY 1
