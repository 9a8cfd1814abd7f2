-- Schema 18 (decision 0058): the projections' schemas, their tables, views and sequences pass from
-- the owner to the projector, which alone writes them from now on. Run as the owner, who owns them
-- before and is a member of the projector. Re-runnable: once done, the owner owns none of them.
DO $reassign$
DECLARE
  s name;
  r record;
BEGIN
  FOR s IN
    SELECT n.nspname FROM pg_namespace n
     WHERE n.nspowner = 'consent_ledger_owner'::regrole AND n.nspname <> 'ledger'
  LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO consent_ledger_projector', s);
    FOR r IN
      SELECT c.relname, c.relkind FROM pg_class c
       WHERE c.relnamespace = s::regnamespace AND c.relowner = 'consent_ledger_owner'::regrole
         AND c.relkind IN ('r', 'v', 'm', 'S', 'p')
    LOOP
      EXECUTE format('ALTER %s %I.%I OWNER TO consent_ledger_projector',
                     CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
                     s, r.relname);
    END LOOP;
  END LOOP;
END
$reassign$;
