-- ledger.is_rfc3339_date: whether p_text is an RFC 3339 full date (YYYY-MM-DD) with a real
-- calendar day, year 0001 or later. The SQL twin of Swift's TokenFormat.date check; the catalogue
-- test compares the two over many strings. Never raises, whatever the text. Not STRICT, so that
-- the planner inlines it (NULL in, NULL out all the same).
CREATE OR REPLACE FUNCTION ledger.is_rfc3339_date(p_text text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
SELECT CASE
  WHEN p_text !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN false
  WHEN substr(p_text, 1, 4)::int < 1 OR substr(p_text, 6, 2)::int NOT BETWEEN 1 AND 12 OR substr(p_text, 9, 2)::int < 1 THEN false
  ELSE substr(p_text, 9, 2)::int
       <= extract(day FROM make_date(substr(p_text, 1, 4)::int, substr(p_text, 6, 2)::int, 1) + interval '1 month' - interval '1 day')
END
$fn$;
