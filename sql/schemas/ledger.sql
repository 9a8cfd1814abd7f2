-- The ledger's own schema. Everything the ledger owns lives in it, owned by consent_ledger_owner.
CREATE SCHEMA IF NOT EXISTS ledger AUTHORIZATION consent_ledger_owner;
COMMENT ON SCHEMA ledger IS 'ConsentLedger: append-only, tamper-evident consent and age-assurance events';
