-- ledger.is_rfc3339_timestamp: whether p_text is an RFC 3339 date-time with a real calendar date
-- and a time zone (2026-11-22T10:15:00Z, 2026-11-22T10:15:00.123+01:00), as strict as Swift's
-- RFC3339.isValidDateTime: uppercase T and Z, at most 9 fraction digits, second 60 allowed. The
-- catalogue test compares the two over many strings. Never raises, whatever the text. Not STRICT,
-- so that the planner inlines it (NULL in, NULL out all the same).
CREATE OR REPLACE FUNCTION ledger.is_rfc3339_timestamp(p_text text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE
  WHEN p_text !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$' THEN false
  WHEN NOT ledger.is_rfc3339_date(substr(p_text, 1, 10)) THEN false
  WHEN substr(p_text, 12, 2)::int > 23 OR substr(p_text, 15, 2)::int > 59 OR substr(p_text, 18, 2)::int > 60 THEN false
  WHEN right(p_text, 1) = 'Z' THEN true
  ELSE substr(right(p_text, 5), 1, 2)::int <= 23 AND right(p_text, 2)::int <= 59
END
$fn$;
