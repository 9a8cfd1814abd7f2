-- The ledger's own writer (decision 0072): the application role's rights (it is a member), and
-- ledger.append_checked_events, which stores batches serve and the CLI have checked themselves.
GRANT EXECUTE ON FUNCTION ledger.append_checked_events(text, text[], uuid[], text[], text[], integer[], timestamptz[],
  text[], text[], text[], text[], text[], text[], text, bytea, text[]) TO consent_ledger_writer;
