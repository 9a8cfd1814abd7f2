-- significant_changes: each significant change an app declared, and per change which subjects
-- were asked (a PermissionKit question about it), approved, denied, or acknowledged it.
CREATE TABLE changes (
  log_id                 text        NOT NULL,
  change_id              text        NOT NULL,
  bundle_id              text,
  introduced_in_version  text        NOT NULL,
  description            text        NOT NULL,   -- the exact text shown to parents
  age_rating_before      text        NOT NULL,
  age_rating_after       text        NOT NULL,
  declared_at            timestamptz NOT NULL,
  declared_position      bigint      NOT NULL,
  declared_event_id      uuid        NOT NULL,
  PRIMARY KEY (log_id, change_id)
);

-- Per change and subject: the first question about the change, the latest answer to any of
-- them (a parent who denied and was asked again may approve later), the first acknowledgment.
CREATE TABLE subjects (
  log_id                  text        NOT NULL,
  change_id               text        NOT NULL,
  subject                 text        NOT NULL,
  question_id             text,
  asked_at                timestamptz,
  asked_position          bigint,
  asked_event_id          uuid,
  answer                  text,        -- approval, denial
  answered_at             timestamptz,
  answered_position       bigint,
  answered_event_id       uuid,
  acknowledged_at         timestamptz,
  acknowledged_position   bigint,
  acknowledged_event_id   uuid,
  handled_by              text,        -- showSignificantUpdateAcknowledgment, originalAppVersion
  PRIMARY KEY (log_id, change_id, subject)
);

-- Which change each question asks about (resolved once, in fold_input), so that an answer (which
-- names only its question) finds it.
CREATE TABLE questions (
  log_id       text   NOT NULL,
  question_id  text   NOT NULL,
  change_id    text   NOT NULL,
  subject      text   NOT NULL,
  position     bigint NOT NULL,
  PRIMARY KEY (log_id, question_id)
);

-- Per change: how many subjects were asked, approved, denied, acknowledged.
CREATE VIEW summary AS
SELECT c.log_id, c.change_id, c.bundle_id, c.introduced_in_version, c.declared_at, c.declared_position,
       count(s.asked_position) AS asked,
       count(*) FILTER (WHERE s.answer = 'approval') AS approved,
       count(*) FILTER (WHERE s.answer = 'denial') AS denied,
       count(s.acknowledged_position) AS acknowledged
  FROM changes c LEFT JOIN subjects s ON s.log_id = c.log_id AND s.change_id = c.change_id
 GROUP BY c.log_id, c.change_id;
