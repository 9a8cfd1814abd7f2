-- A version string as a sortable key: '3.10.1' -> {3,10,1}, so that '3.10' sorts after '3.9'.
-- NULL when the string is not dotted numbers (such versions are not compared).
CREATE OR REPLACE FUNCTION ledger.version_key(p_version text)
RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $fn$
  SELECT CASE WHEN p_version ~ '^[0-9]{1,9}(\.[0-9]{1,9})*$'
              THEN string_to_array(p_version, '.')::integer[] END
$fn$;
