-- The events one fold works on, parsed once: the runner fills this session-private table with the
-- events of one position range (from, to] of one log (only the types the projection reads, and
-- for time travel only one subject's events or those recorded or occurred by a time), then runs
-- the projection's fold.sql, which reads nothing else of the log. A temporary table: private to
-- the session, emptied by the runner before each fill, dropped when the session ends.
-- It always holds one log's events, so a fold's DISTINCT ON, ORDER BY and PARTITION BY leave
-- log_id out: a leading key that never changes stops PostgreSQL's sort from using its abbreviated
-- keys, and doubled the cost of every sort (joins still match on log_id).
CREATE TEMPORARY TABLE IF NOT EXISTS fold_input (
  log_id          text        NOT NULL,
  position        bigint      NOT NULL,
  event_id        uuid        NOT NULL,
  stream          text        NOT NULL,
  type            text        NOT NULL,
  schema_version  integer     NOT NULL,
  occurred_at     timestamptz NOT NULL,
  recorded_at     timestamptz NOT NULL,
  subject         text,
  actor_kind      text        NOT NULL,
  actor_id        text,
  bundle_id       text,        -- envelope app.bundleId
  platform        text,        -- envelope app.platform
  app_version     text,        -- envelope app.appVersion
  jurisdiction    text,        -- envelope jurisdiction.code
  environment     text,        -- envelope app.environment: production, sandbox, development; NULL: not said
  ref             text,        -- the lifecycle the event belongs to: payload questionId, exceptionId or changeId
  change_id       text,        -- the significant change the event is about: a declaration's or acknowledgment's
                               -- changeId; for PermissionQuestionSent the change the question asks about (its
                               -- changeId, or the change declared for the app before it with the same exact
                               -- description), resolved here once for every fold (fill-fold-input.sql)
  topic           text,        -- what was asked: PermissionQuestionSent significantAppUpdate, communication or
                               -- custom:<name>; AgeExceptionRequested ageRatingException
  payload         jsonb       NOT NULL,  -- upcast to the type's current schema version
  derived         jsonb                  -- the ledger's derived facts (legalCategory, ratingLabel, ...)
);
-- No index: every statement reads the whole range, and an index only tempts the planner into
-- nested loops over it.
