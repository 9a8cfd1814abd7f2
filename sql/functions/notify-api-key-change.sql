-- Trigger function: tells every listening `serve` that an API key changed (revoked, or any other
-- change), on the channel consent_ledger_api_keys with the key id as payload. PostgreSQL delivers
-- the notification when the changing transaction commits, and never when it rolls back. A server
-- that caches verified keys drops the key on hearing it (docs/decisions/0039).
CREATE OR REPLACE FUNCTION ledger.notify_api_key_change() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('consent_ledger_api_keys', coalesce(NEW.key_id, OLD.key_id));
  RETURN NULL;
END
$fn$;
