-- Everything after this point in the manifest is created by, and so owned by, the owner role.
-- (The migrator runs the whole manifest in one transaction; SET LOCAL ends with it.)
SET LOCAL ROLE consent_ledger_owner;
