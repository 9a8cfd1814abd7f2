-- The deliverer (sql/roles/deliverer.sql, decision 0083): the auditor's reads (inherited), the
-- subscriptions with their secrets, and only the columns a delivery moves; the delivery log, added to.
GRANT SELECT ON ledger.subscriptions TO consent_ledger_deliverer;
GRANT UPDATE (state, cursor_position, cursor_rule, failures, failing_since, next_attempt_at) ON ledger.subscriptions
  TO consent_ledger_deliverer;
GRANT SELECT, INSERT ON ledger.deliveries TO consent_ledger_deliverer;
-- The one event it may store (decision 0084): a WithdrawalDelivered, exactly as the delivery log's
-- 2xx row of a ConsentRescinded makes it, through the owner's function.
GRANT EXECUTE ON FUNCTION ledger.withdrawal_delivered_event(text, bigint) TO consent_ledger_deliverer;
GRANT EXECUTE ON FUNCTION ledger.record_withdrawal_delivered(text, bigint, text) TO consent_ledger_deliverer;
