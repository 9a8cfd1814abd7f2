"""tamper: the database owner, triggers disabled, changes the stored log behind the ledger's back;
`verify` must fail and name the exact position. The log is restored between trials from a copy."""
from . import checks
from .checks import Violation

NAME = "tamper"
INVARIANT = "each change made with triggers disabled: verify fails naming the exact position"
LOG = "tamper"
BACKUP = "public.faults_tamper_events"
HEAD_BACKUP = "public.faults_tamper_head"

# name -> (what is changed, how to find the expected position)
CASES = [
    "record-byte", "leaf-hash-byte", "chain-hash-byte", "delete-last-row", "swap-records",
    "insert-middle-row", "subject-column", "occurred-at-column", "actor-kind-column",
    "schema-version-column", "type-column", "head-moved-back",
]
DEFAULT_TRIALS = len(CASES) * 5
QUICK_TRIALS = len(CASES)
QUICK_SECONDS = 90


class State:
    def __init__(self, count):
        self.count = count
        self.by_case = {}


def setup(ctx, trials):
    outcome = ctx.ledger.run("simulate", "--families", 3, "--days", 20, "--seed", 11)
    path = ctx.path("tamper.ndjson")
    with open(path, "w") as handle:
        handle.write(outcome.out)
    appended = ctx.ledger.run("append", "--log", LOG, "--file", path)
    if not appended.ok:
        raise RuntimeError("append failed:\n" + appended.describe())
    checks.verify(ctx.ledger, LOG)
    ctx.cluster.query(f"DROP TABLE IF EXISTS {BACKUP}, {HEAD_BACKUP}; "
                      f"CREATE TABLE {BACKUP} AS SELECT * FROM ledger.events WHERE log_id = '{LOG}'; "
                      f"CREATE TABLE {HEAD_BACKUP} AS SELECT * FROM ledger.logs WHERE log_id = '{LOG}'")
    count = int(ctx.cluster.scalar(f"SELECT count(*) FROM {BACKUP}"))
    return State(count)


def tampering(sql):
    """The change, as the superuser, with every trigger of the two tables off."""
    return ("BEGIN; ALTER TABLE ledger.events DISABLE TRIGGER ALL; ALTER TABLE ledger.logs DISABLE TRIGGER ALL; "
            + sql + "; ALTER TABLE ledger.events ENABLE TRIGGER ALL; ALTER TABLE ledger.logs ENABLE TRIGGER ALL; COMMIT")


def where_log(position=None):
    return f"log_id = '{LOG}'" + (f" AND position = {position}" if position is not None else "")


def flip_byte(column, position, rng, length):
    offset, mask = rng.randrange(length), rng.randrange(1, 256)
    return (f"UPDATE ledger.events SET {column} = set_byte({column}, {offset}, get_byte({column}, {offset}) # {mask}) "
            f"WHERE {where_log(position)}", f"byte {offset} of {column} XOR {mask}")


def plan(ctx, state, case):
    """(SQL, description, positions verify may name)."""
    n, rng = state.count, ctx.rng
    p = rng.randrange(2, n)          # strictly inside the log
    if case == "record-byte":
        length = int(ctx.cluster.scalar(f"SELECT length(record) FROM ledger.events WHERE {where_log(p)}"))
        sql, what = flip_byte("record", p, rng, length)
        return sql, f"position {p}: {what}", {p}
    if case == "leaf-hash-byte":
        sql, what = flip_byte("leaf_hash", p, rng, 32)
        return sql, f"position {p}: {what}", {p}
    if case == "chain-hash-byte":
        sql, what = flip_byte("chain_hash", p, rng, 32)
        return sql, f"position {p}: {what}", {p}
    if case == "delete-last-row":
        return f"DELETE FROM ledger.events WHERE {where_log(n)}", f"deleted the last row, position {n}", {n}
    if case == "swap-records":
        q = rng.randrange(p + 1, n + 1) if p < n else n
        sql = (f"UPDATE ledger.events e SET record = o.record, leaf_hash = o.leaf_hash, chain_hash = o.chain_hash "
               f"FROM {BACKUP} o WHERE e.log_id = '{LOG}' AND e.position IN ({p}, {q}) AND o.position = {p + q} - e.position")
        return sql, f"swapped record, leaf and chain hash of positions {p} and {q}", {p}
    if case == "insert-middle-row":
        # A careful forger: a copy of row p as a new event (new id, a stream of its own at version 1),
        # its hashes recomputed on p - 1, the rows from p on moved one position up. Row p is then
        # consistent; row p + 1 cannot be.
        stream = f"forged-{rng.randrange(10**9)}"
        rec = ("convert_to(regexp_replace(replace(replace(convert_from(b.record, 'UTF8'), b.event_id::text, n.new_id::text), "
               f"'\"stream\":\"' || b.stream || '\"', '\"stream\":\"{stream}\"'), "
               "'\"streamVersion\":[0-9]+}$', '\"streamVersion\":1}'), 'UTF8')")
        sql = (f"UPDATE ledger.events SET position = position + 1000000 WHERE {where_log()} AND position >= {p}; "
               f"UPDATE ledger.events SET position = position - 999999 WHERE {where_log()} AND position > 1000000; "
               f"INSERT INTO ledger.events SELECT x.log_id, {p}, x.new_id, '{stream}', 1, x.type, "
               f"x.schema_version, x.occurred_at, x.recorded_at, x.subject, x.actor_kind, x.actor_id, x.correlation_id, "
               f"x.causation_id, x.idempotency_key, x.rec, sha256('\\x00'::bytea || x.rec), "
               f"sha256((SELECT chain_hash FROM ledger.events WHERE {where_log(p - 1)}) || sha256('\\x00'::bytea || x.rec)) "
               f"FROM (SELECT b.*, n.new_id, {rec} AS rec FROM {BACKUP} b, (SELECT gen_random_uuid() AS new_id) n "
               f"WHERE b.position = {p}) x")
        return sql, f"inserted a forged row (hashes recomputed) at position {p}, moving the rest up", {p + 1}
    if case == "subject-column":
        p = int(ctx.cluster.scalar(f"SELECT position FROM {BACKUP} WHERE subject IS NOT NULL AND position > 1 "
                                   f"ORDER BY random() LIMIT 1"))
        return (f"UPDATE ledger.events SET subject = 'p_forged' WHERE {where_log(p)}",
                f"position {p}: column subject set to p_forged", {p})
    if case == "occurred-at-column":
        return (f"UPDATE ledger.events SET occurred_at = occurred_at + interval '1 day' WHERE {where_log(p)}",
                f"position {p}: column occurred_at one day later", {p})
    if case == "actor-kind-column":
        return (f"UPDATE ledger.events SET actor_kind = 'forged' WHERE {where_log(p)}",
                f"position {p}: column actor_kind set to forged", {p})
    if case == "schema-version-column":
        return (f"UPDATE ledger.events SET schema_version = schema_version + 1 WHERE {where_log(p)}",
                f"position {p}: column schema_version plus one", {p})
    if case == "type-column":
        return (f"UPDATE ledger.events SET type = 'ForgedType' WHERE {where_log(p)}",
                f"position {p}: column type set to ForgedType", {p})
    if case == "head-moved-back":
        return (f"UPDATE ledger.logs SET head_position = {n - 1}, head_chain_hash = "
                f"(SELECT chain_hash FROM {BACKUP} WHERE position = {n - 1}) WHERE log_id = '{LOG}'",
                f"the head row moved back to position {n - 1} (with that position's chain hash)", {n - 1, n})
    raise ValueError(case)


def restore(ctx):
    ctx.cluster.query(tampering(
        f"DELETE FROM ledger.events WHERE {where_log()}; INSERT INTO ledger.events SELECT * FROM {BACKUP}; "
        f"UPDATE ledger.logs l SET head_position = h.head_position, head_chain_hash = h.head_chain_hash "
        f"FROM {HEAD_BACKUP} h WHERE l.log_id = h.log_id"))
    differing = ctx.cluster.scalar(
        f"SELECT (SELECT count(*) FROM (SELECT * FROM ledger.events WHERE {where_log()} EXCEPT SELECT * FROM {BACKUP}) a) "
        f"+ (SELECT count(*) FROM (SELECT * FROM {BACKUP} EXCEPT SELECT * FROM ledger.events WHERE {where_log()}) b)")
    if differing != "0":
        raise RuntimeError(f"the tamper log was not restored: {differing} rows differ")


def trial(ctx, state, number):
    case = CASES[(number - 1) % len(CASES)]
    sql, what, expected = plan(ctx, state, case)
    state.by_case.setdefault(case, [0, 0])[0] += 1
    try:
        done = ctx.cluster.psql(tampering(sql))
        if not done.ok:
            raise RuntimeError("the tampering SQL failed:\n" + done.describe())
        outcome = ctx.ledger.run("verify", "--log", LOG)
        named = checks.first_bad_position(outcome)
        if outcome.ok or named not in expected:
            state.by_case[case][1] += 1
            verdict = "passed" if outcome.ok else f"named position {named}"
            raise Violation(f"{case}: {what}; verify {verdict}, expected a failure naming position "
                            f"{' or '.join(str(e) for e in sorted(expected))}\n"
                            f"tampering (psql as postgres on {ctx.cluster.socket_dir}): {sql}\n" + outcome.describe())
    finally:
        restore(ctx)


def teardown(ctx, state):
    try:
        restore(ctx)
    finally:
        ctx.cluster.query(f"DROP TABLE IF EXISTS {BACKUP}, {HEAD_BACKUP}")


def summary(state):
    missed = [f"{case} {bad}/{tried}" for case, (tried, bad) in state.by_case.items() if bad]
    return ("missed: " + ", ".join(missed)) if missed else ""
