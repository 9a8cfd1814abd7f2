-- One step of the hash chain: sha256(previous chain hash || leaf hash). `state` is the running
-- value (NULL before the first row, when `previous`, the log's head chain hash, is used).
CREATE OR REPLACE FUNCTION ledger.chain_step(state bytea, previous bytea, leaf bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT sha256(coalesce(state, previous) || leaf)
$fn$;
