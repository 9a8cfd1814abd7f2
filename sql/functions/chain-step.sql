-- One step of the hash chain: sha256(previous chain hash || leaf hash). `state` is the running
-- value (NULL before the first row, when `previous`, the log's head chain hash, is used).
-- PL/pgSQL rather than SQL: as an aggregate's transition function it is called once per row, and
-- PL/pgSQL's simple-expression path is cheaper per call than SQL-function execution.
CREATE OR REPLACE FUNCTION ledger.chain_step(state bytea, previous bytea, leaf bytea) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
BEGIN
  RETURN sha256(coalesce(state, previous) || leaf);
END
$fn$;
