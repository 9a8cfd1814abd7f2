-- consent_ledger_deliverer: sends the webhook subscriptions (decision 0083), from `serve` on the
-- embedded database or `consent-ledger subscriptions deliver` on a server of your own. It reads what
-- the auditor reads (it is a member that inherits its rights: the events and the findings it sends),
-- reads the subscriptions with their secrets, moves their cursors and failure counts, and adds to the
-- delivery log. It cannot create, re-point or delete a subscription (the administrator's), append,
-- or write anything else.
DO $deliverer$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'consent_ledger_deliverer') THEN
    BEGIN
      CREATE ROLE consent_ledger_deliverer LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  IF NOT pg_has_role('consent_ledger_deliverer', 'consent_ledger_auditor', 'MEMBER') THEN
    GRANT consent_ledger_auditor TO consent_ledger_deliverer;
  END IF;
END
$deliverer$;
