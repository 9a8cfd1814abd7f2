-- Nobody gets anything by default: no table, no function (functions are EXECUTE-able by PUBLIC
-- unless revoked).
REVOKE ALL ON ALL TABLES IN SCHEMA ledger FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ledger FROM PUBLIC;
