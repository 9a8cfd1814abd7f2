-- Created in every projection's schema next to its tables, so that a rebuild's swap moves the
-- tables and the positions they are folded up to together, in one step.
-- checkpoints: per log, the position the tables are folded up to. The runner advances it in the
-- same transaction as the fold, so a fold is applied exactly once.
CREATE TABLE checkpoints (
  log_id         text        PRIMARY KEY,
  position       bigint      NOT NULL DEFAULT 0 CHECK (position >= 0),
  events_folded  bigint      NOT NULL DEFAULT 0,
  updated_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- definition: the hash of the SQL the tables were built with (this folder's files); a build
-- whose hash differs from the running software's is stale and gets rebuilt.
CREATE TABLE definition (
  projection       text        NOT NULL,
  definition_hash  text        NOT NULL,
  built_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  software         text        NOT NULL
);
