-- Webhook subscriptions (decision 0083): a log's events of the asked types and its findings of the
-- asked kinds and rules, POSTed to a URL in log order, at least once, each signed with the
-- subscription's secret. The cursor is the last item the receiver answered with a 2xx:
-- (cursor_position, cursor_rule), where cursor_rule NULL stands after everything at the position,
-- '' after the event at it, and a rule id after that rule's finding at it. Only the owner reads
-- this table (the secret is here, kept to sign with); nothing is granted to another role. A
-- deleted subscription keeps its row, so its delivery log stays.
CREATE TABLE IF NOT EXISTS ledger.subscriptions (
  subscription_id  text        NOT NULL CHECK (subscription_id ~ '^sub_[a-z0-9]{12}$'),
  log_id           text        NOT NULL CHECK (log_id ~ '^[a-z0-9][a-z0-9._-]{0,62}$'),
  url              text        NOT NULL CHECK (url ~ '^https?://[^\s]+$' AND length(url) <= 2000),
  event_types      text[]      NOT NULL DEFAULT '{}',
  finding_kinds    text[]      NOT NULL DEFAULT '{}' CHECK (finding_kinds <@ ARRAY['violation', 'anomaly']),
  rules            text[]      NOT NULL DEFAULT '{}',
  secret           text        NOT NULL CHECK (secret ~ '^whsec_[A-Za-z0-9]{32,}$'),
  label            text        NOT NULL DEFAULT '' CHECK (length(label) <= 200),
  state            text        NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'dead', 'deleted')),
  cursor_position  bigint      NOT NULL DEFAULT 0 CHECK (cursor_position >= 0),
  cursor_rule      text,
  failures         integer     NOT NULL DEFAULT 0 CHECK (failures >= 0),
  failing_since    timestamptz,
  next_attempt_at  timestamptz,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK (cardinality(event_types) + cardinality(finding_kinds) > 0),
  -- log_id first, as in every table split by log (docs/deployment.md); ids are random, so unique anyway.
  PRIMARY KEY (log_id, subscription_id)
);
CREATE INDEX IF NOT EXISTS subscriptions_id ON ledger.subscriptions (subscription_id);
COMMENT ON TABLE ledger.subscriptions IS 'Webhook subscriptions: what a log sends where, signed with secret, and how far it was answered';
