-- Created in every projection's schema next to its tables, so that a rebuild's swap moves the
-- tables and the positions they are folded up to together, in one step.
-- checkpoints: per log, the position the tables are folded up to. The runner advances it in the
-- same transaction as the fold, so a fold is applied exactly once.
CREATE TABLE checkpoints (
  log_id         text        PRIMARY KEY,
  position       bigint      NOT NULL DEFAULT 0 CHECK (position >= 0),
  events_folded  bigint      NOT NULL DEFAULT 0,
  updated_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- A stall (decision 0033): the event at position + 1 could not be folded. The log stops there
  -- for this projection (never skipped: position stays before it); every other log goes on. Each
  -- run retries that event alone; the columns are cleared in the step that folds it.
  stall_position   bigint CHECK (stall_position IS NULL OR stall_position = position + 1),
  stall_event_id   uuid,
  stall_error      text,         -- PostgreSQL's message, with its SQLSTATE
  stalled_since    timestamptz,  -- when the fold first failed on it
  stall_retried_at timestamptz   -- when a run last tried it again
);
-- definition: the hash of the SQL the tables were built with (this folder's files); a build
-- whose hash differs from the running software's is stale and gets rebuilt.
CREATE TABLE definition (
  projection       text        NOT NULL,
  definition_hash  text        NOT NULL,
  built_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  software         text        NOT NULL
);
