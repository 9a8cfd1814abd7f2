-- Every attempt to deliver a subscription's item (decision 0083): which item, the how-manieth
-- attempt, when, the receiver's status code (NULL when it gave none) or the transport error, and
-- how long it took. A 2xx row is written in the same statement that moves the subscription's
-- cursor past the item.
CREATE TABLE IF NOT EXISTS ledger.deliveries (
  log_id           text        NOT NULL,
  delivery_id      bigint      GENERATED ALWAYS AS IDENTITY,
  subscription_id  text        NOT NULL,
  item_id          text        NOT NULL,
  position         bigint      NOT NULL,
  attempt          integer     NOT NULL CHECK (attempt >= 1),
  attempted_at     timestamptz NOT NULL,
  status           integer     CHECK (status BETWEEN 100 AND 599),
  error            text,
  latency_ms       double precision NOT NULL CHECK (latency_ms >= 0),
  CHECK (status IS NOT NULL OR error IS NOT NULL),
  PRIMARY KEY (log_id, delivery_id),
  FOREIGN KEY (log_id, subscription_id) REFERENCES ledger.subscriptions (log_id, subscription_id)
);
CREATE INDEX IF NOT EXISTS deliveries_subscription ON ledger.deliveries (log_id, subscription_id, delivery_id);
COMMENT ON TABLE ledger.deliveries IS 'Every webhook delivery attempt: status or error, latency';
