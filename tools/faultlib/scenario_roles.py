"""roles: the app, writer and auditor roles try every write path on every ledger table; each must
be refused (insufficient privilege) and change nothing. The writer (decision 0072) is the app role
with the checked append besides: no table of its own to write either."""
from .checks import Violation
from .cluster import APP, AUDITOR, OWNER, WRITER

NAME = "roles"
INVARIANT = ("as app, writer and auditor: UPDATE, DELETE, TRUNCATE, INSERT (a wrong hash too), ALTER, DROP, trigger "
             "disabling on every ledger table, and owner-only paths, refused with 42501; a false checkpoint "
             "refused as the app and writer roles (CL009); the checked append refused but to the writer; nothing changes")
DEFAULT_TRIALS = 0          # every attempt once (set in setup)
QUICK_TRIALS = 0
QUICK_SECONDS = 120

WRONG_HASH_EVENT = (
    "INSERT INTO ledger.events (log_id, position, event_id, stream, stream_version, type, schema_version, "
    "occurred_at, recorded_at, actor_kind, record, leaf_hash, chain_hash) "
    "SELECT e.log_id, e.position + 1000000, gen_random_uuid(), e.stream, 999999, e.type, e.schema_version, "
    "e.occurred_at, e.recorded_at, e.actor_kind, e.record, sha256('\\x01'::bytea), e.chain_hash "
    "FROM ledger.events e LIMIT 1")


class State:
    def __init__(self, attempts):
        self.attempts = attempts


def attempts_for(tables, columns):
    attempts = []
    for role in (APP, WRITER, AUDITOR):
        for table in tables:
            column = columns[table]
            for label, sql in (
                ("UPDATE", f"UPDATE ledger.{table} SET {column} = {column}"),
                ("DELETE", f"DELETE FROM ledger.{table}"),
                ("TRUNCATE", f"TRUNCATE ledger.{table}"),
                ("INSERT a copy", f"INSERT INTO ledger.{table} SELECT * FROM ledger.{table} LIMIT 1"),
                ("ALTER", f"ALTER TABLE ledger.{table} ADD COLUMN faults_forged integer"),
                ("DROP", f"DROP TABLE ledger.{table}"),
                ("DISABLE TRIGGER", f"ALTER TABLE ledger.{table} DISABLE TRIGGER ALL"),
            ):
                attempts.append((role, table, label, sql))
        attempts += [
            (role, "events", "INSERT with a wrong hash", WRONG_HASH_EVENT),
            (role, None, "SET ROLE owner", f"SET ROLE {OWNER}; DELETE FROM ledger.events"),
            (role, None, "triggers off (session_replication_role)", "SET session_replication_role = replica"),
            (role, None, "CREATE TABLE in ledger", "CREATE TABLE ledger.faults_forged (a integer)"),
            (role, None, "replace a trigger function",
             "CREATE OR REPLACE FUNCTION ledger.reject_mutation() RETURNS trigger LANGUAGE plpgsql AS $f$BEGIN RETURN NULL; END$f$"),
            (role, None, "erase a subject (owner only)",
             "SELECT * FROM ledger.erase_subject('roles', 'p_x', '{\"type\":\"SubjectErased\"}')"),
            (role, None, "apply retention (owner only)",
             "SELECT * FROM ledger.apply_retention('roles', '{\"type\":\"RetentionApplied\"}')"),
            (role, None, "append past the route check (owner only)",
             "SELECT * FROM ledger.append_events_through('ledger.erase_subject', 'roles', ARRAY['{}'], NULL, NULL, NULL)"),
            # The app role may record a checkpoint (serve --checkpoint-every, decision 0070), but the
            # function refuses any but the log's own tree: a false one is refused all the same.
            (role, "checkpoints", "record a false checkpoint" + (" (refused by the function)" if role != AUDITOR else " (app only)"),
             "SELECT ledger.record_checkpoint('roles', 1, sha256('x'), sha256('x'), 'o', 'k', 1, 'v', 'n')",
             "CL009" if role != AUDITOR else "42501"),
            (role, None, "ALTER the schema", "ALTER SCHEMA ledger RENAME TO faults_forged"),
        ]
    attempts.append((AUDITOR, None, "append (app only)",
                     "SELECT * FROM ledger.append_events('roles', ARRAY['{}'])"))
    # The checked append stores what the catalogue was not asked about: the writer's alone.
    checked = ("SELECT * FROM ledger.append_checked_events('roles', ARRAY['{}'], ARRAY[gen_random_uuid()], ARRAY['s'], "
               "ARRAY['AgeRangeShared'], ARRAY[1], ARRAY[now()], ARRAY[NULL::text], ARRAY['app'], ARRAY[NULL::text], ARRAY[NULL::text], "
               "ARRAY[NULL::text], ARRAY['any'], NULL, NULL, NULL)")
    for role in (APP, AUDITOR):
        attempts.append((role, "events", "the checked append (writer only)", checked))
    return attempts


def populate(ctx):
    """Rows in every ledger table, so that each write has something to hit: a small history, an API
    key, and a signed checkpoint (which builds the Merkle tree)."""
    history = ctx.path("roles.ndjson")
    simulated = ctx.ledger.run("simulate", "--families", 2, "--days", 2, "--seed", 5)
    with open(history, "w") as handle:
        handle.write(simulated.out)
    for argv in (("append", "--log", "roles", "--file", history), ("keys", "create", "--log", "roles", "--role", "auditor"),
                 ("signing-key", "create", "--name", "faults.example"), ("checkpoint", "--log", "roles")):
        outcome = ctx.ledger.run(*argv)
        if not outcome.ok and not (argv[0] == "signing-key" and "exist" in outcome.err):
            raise RuntimeError(" ".join(argv[:2]) + " failed:\n" + outcome.describe())


def setup(ctx, trials):
    populate(ctx)
    tables = [row[0] for row in ctx.cluster.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'ledger' ORDER BY tablename")]
    columns = {}
    for table in tables:
        columns[table] = ctx.cluster.scalar(
            f"SELECT column_name FROM information_schema.columns WHERE table_schema = 'ledger' "
            f"AND table_name = '{table}' ORDER BY ordinal_position LIMIT 1")
    attempts = attempts_for(tables, columns)
    return State(attempts)


def digest(ctx, table):
    if table is None:
        return ctx.cluster.scalar("SELECT md5(string_agg(p.proname || p.prosrc, ',' ORDER BY p.oid)) "
                                  "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'ledger'")
    # Every row version's xmin and place: any UPDATE, DELETE, INSERT or TRUNCATE changes them.
    return ctx.cluster.scalar(f"SELECT count(*) || ':' || coalesce(md5(string_agg(t.xmin::text || '@' || t.ctid::text, "
                              f"',' ORDER BY t.ctid)), '') FROM ledger.{table} t")


def trial(ctx, state, number):
    role, table, label, sql, *expected = state.attempts[(number - 1) % len(state.attempts)]
    code = expected[0] if expected else "42501"
    before = digest(ctx, table)
    outcome = ctx.cluster.psql(sql, user=role)
    after = digest(ctx, table)
    what = f"{label} on {'ledger.' + table if table else 'the schema'} as {role}"
    if outcome.ok or code not in outcome.err:
        reason = "for lack of privilege (42501)" if code == "42501" else f"with {code}"
        raise Violation(f"{what} was not refused {reason}:\n" + outcome.describe())
    if before != after:
        raise Violation(f"{what}: refused, but {'ledger.' + table if table else 'the ledger functions'} changed "
                        f"({before} -> {after}):\n" + outcome.describe())


def teardown(ctx, state):
    pass


def summary(state):
    return f"{len(state.attempts)} attempts" if state else ""
