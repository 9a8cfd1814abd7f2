-- pending: questions and age-rating exception requests still waiting for a parent. An item is
-- closed by its answer, decision, expiry or failure; closed items keep their row (closed_position
-- set) so that the same question sent twice cannot reopen it, and open_items shows the rest.
CREATE TABLE items (
  log_id           text        NOT NULL,
  kind             text        NOT NULL CHECK (kind IN ('question', 'exception')),
  item_id          text        NOT NULL,
  subject          text,
  bundle_id        text,
  topic            text,        -- significantAppUpdate, communication, custom:<name>, ageRatingException
  change_id        text,
  rated_app        bigint,
  asked_at         timestamptz NOT NULL,
  asked_position   bigint      NOT NULL,
  asked_event_id   uuid        NOT NULL,
  expires_at       timestamptz,
  closed_by        text,        -- the event type that closed it
  closed_position  bigint,
  PRIMARY KEY (log_id, kind, item_id)
);
CREATE INDEX items_open ON items (log_id, asked_at) WHERE closed_position IS NULL;

-- The open items, oldest first, with their age now. Reports compute the age as of their own time
-- from asked_at.
CREATE VIEW open_items AS
SELECT log_id, kind, item_id, subject, bundle_id, topic, change_id, rated_app, asked_at, asked_position,
       asked_event_id, expires_at, clock_timestamp() - asked_at AS age
  FROM items
 WHERE closed_position IS NULL;
