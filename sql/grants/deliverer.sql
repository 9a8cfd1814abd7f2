-- The deliverer (sql/roles/deliverer.sql, decision 0083): the auditor's reads (inherited), the
-- subscriptions with their secrets, and only the columns a delivery moves; the delivery log, added to.
GRANT SELECT ON ledger.subscriptions TO consent_ledger_deliverer;
GRANT UPDATE (state, cursor_position, cursor_rule, failures, failing_since, next_attempt_at) ON ledger.subscriptions
  TO consent_ledger_deliverer;
GRANT SELECT, INSERT ON ledger.deliveries TO consent_ledger_deliverer;
