"""tamper: the database owner, triggers disabled, changes the stored log behind the ledger's back:
its records, hashes and columns, its head, its stored Merkle nodes and its signed checkpoints.
`verify` must fail and name the exact position (the node's level and index, the checkpoint's size);
`checkpoint` must refuse to sign over a changed record or node. Below the newest signed checkpoint,
a regulator report must not say "Integrity: passed" over a changed record, column, row order or a
head moved back (issue 36, finding 2), and a projection row deleted by the superuser must fail
`verify --projections` (finding 3). The log, tree, checkpoints and the changed projection table are
restored between trials from a copy."""
import json
import re

from . import checks
from .checks import Violation

NAME = "tamper"
INVARIANT = ("each change made with triggers disabled: verify fails naming the exact position, node or checkpoint; "
             "checkpoint refuses to sign over a changed record or node; below the checkpoint, the regulator report's "
             "integrity fails; a projection row deleted fails verify --projections")
LOG = "tamper"
BACKUP = "public.faults_tamper_events"
HEAD_BACKUP = "public.faults_tamper_head"
NODES_BACKUP = "public.faults_tamper_nodes"
TREE_BACKUP = "public.faults_tamper_tree"
CHECKPOINTS_BACKUP = "public.faults_tamper_checkpoints"
FINDINGS_BACKUP = "public.faults_tamper_findings"
# Each backup beside the table it copies.
BACKUPS = (("ledger.events", BACKUP), ("ledger.logs", HEAD_BACKUP), ("ledger.merkle_nodes", NODES_BACKUP),
           ("ledger.merkle_trees", TREE_BACKUP), ("ledger.checkpoints", CHECKPOINTS_BACKUP),
           ("anomalies.findings", FINDINGS_BACKUP))

# name -> (what is changed, how to find the expected position)
CASES = [
    "record-byte", "leaf-hash-byte", "chain-hash-byte", "delete-last-row", "swap-records",
    "insert-middle-row", "subject-column", "occurred-at-column", "actor-kind-column",
    "schema-version-column", "type-column", "head-moved-back",
    "merkle-node-byte", "merkle-node-deleted", "checkpoint-root-column", "checkpoint-chain-hash-column",
    "checkpoint-signature", "sign-over-record", "sign-over-node",
    "report-record-rewritten", "report-subject-column", "report-swap-rows", "report-head-below-checkpoint",
    "projection-row-deleted",
]
DEFAULT_TRIALS = len(CASES) * 6
QUICK_TRIALS = len(CASES)
QUICK_SECONDS = 90


class State:
    def __init__(self, count, signed):
        self.count = count
        # The sizes of the two signed checkpoints; the tree is built to the second, and the
        # positions after it (the unsigned tail) are what `checkpoint` would check next.
        self.signed = signed
        self.by_case = {}


def append(ctx, lines, name):
    path = ctx.path(name)
    with open(path, "w") as handle:
        handle.writelines(lines)
    appended = ctx.ledger.run("append", "--log", LOG, "--file", path)
    if not appended.ok:
        raise RuntimeError("append failed:\n" + appended.describe())


def sign(ctx):
    signed = ctx.ledger.run("checkpoint", "--log", LOG)
    if not signed.ok:
        raise RuntimeError("checkpoint failed:\n" + signed.describe())


def setup(ctx, trials):
    outcome = ctx.ledger.run("simulate", "--families", 3, "--days", 20, "--seed", 11)
    lines = outcome.out.splitlines(keepends=True)
    key = ctx.ledger.run("signing-key", "create", "--name", "faults.example")
    if not key.ok and "exist" not in key.err:
        raise RuntimeError("signing-key create failed:\n" + key.describe())
    # Three parts: signed, signed again, and a tail no checkpoint covers yet.
    first, second = len(lines) * 3 // 5, len(lines) * 4 // 5
    append(ctx, lines[:first], "tamper-1.ndjson")
    sign(ctx)
    append(ctx, lines[first:second], "tamper-2.ndjson")
    sign(ctx)
    append(ctx, lines[second:], "tamper-3.ndjson")
    checks.verify(ctx.ledger, LOG)
    built = ctx.ledger.run("project", "run")
    if not built.ok:
        raise RuntimeError("project run failed:\n" + built.describe())
    ctx.cluster.query("DROP TABLE IF EXISTS " + ", ".join(backup for _, backup in BACKUPS) + "; "
                      + "; ".join(f"CREATE TABLE {backup} AS SELECT * FROM {table} WHERE log_id = '{LOG}'"
                                  for table, backup in BACKUPS))
    count = int(ctx.cluster.scalar(f"SELECT count(*) FROM {BACKUP}"))
    signed = [int(row[0]) for row in ctx.cluster.query(f"SELECT tree_size FROM {CHECKPOINTS_BACKUP} ORDER BY tree_size")]
    if len(signed) != 2 or signed[1] >= count:
        raise RuntimeError(f"setup expected two checkpoints below the head of {count}, found {signed}")
    return State(count, signed)


def tampering(sql):
    """The change, as the superuser, with every trigger of the log's tables off."""
    tables = [table for table, _ in BACKUPS]
    return ("BEGIN; " + "".join(f"ALTER TABLE {t} DISABLE TRIGGER ALL; " for t in tables) + sql + "; "
            + "".join(f"ALTER TABLE {t} ENABLE TRIGGER ALL; " for t in tables) + "COMMIT")


def where_log(position=None):
    return f"log_id = '{LOG}'" + (f" AND position = {position}" if position is not None else "")


def flip_byte(column, position, rng, length):
    offset, mask = rng.randrange(length), rng.randrange(1, 256)
    return (f"UPDATE ledger.events SET {column} = set_byte({column}, {offset}, get_byte({column}, {offset}) # {mask}) "
            f"WHERE {where_log(position)}", f"byte {offset} of {column} XOR {mask}")


class NamesPosition:
    """verify fails, naming one of `positions` as the first bad one."""

    command = "verify"

    def __init__(self, *positions):
        self.positions = set(positions)

    def wanted(self):
        return "verify to fail naming position " + " or ".join(str(p) for p in sorted(self.positions))

    def met(self, ctx, outcome):
        return not outcome.ok and checks.first_bad_position(outcome) in self.positions


class TreeProblem:
    """verify fails on the Merkle tree or a checkpoint, with a message matching `pattern`."""

    command = "verify"

    def __init__(self, pattern, what):
        self.pattern, self.what = pattern, what

    def wanted(self):
        return f"verify to fail naming {self.what}"

    def met(self, ctx, outcome):
        failed = re.search(r"Merkle tree or checkpoints FAILED: (.*)", outcome.out)
        return not outcome.ok and failed is not None and re.search(self.pattern, failed.group(1)) is not None


class ReportIntegrityFails:
    """The regulator report over the whole period of the log is made, and its integrity section
    says it failed (every change here leaves the records readable, so the report must not be
    refused for another reason)."""

    command = "report"

    def __init__(self, period):
        self.args = ("regulator", "--jurisdiction", "US", "--from", period[0], "--to", period[1], "--format", "json")

    def wanted(self):
        return "the regulator report to be made with its integrity failed"

    def met(self, ctx, outcome):
        if not outcome.ok:
            return False
        try:
            integrity = json.loads(outcome.out)["integrity"]
        except (ValueError, KeyError):
            return False
        return integrity.get("passed") is False


class ProjectionsDiffer:
    """`verify --projections` fails, naming the table."""

    command = "verify"
    args = ("--projections",)

    def __init__(self, table):
        self.table = table

    def wanted(self):
        return f"verify --projections to fail naming table {self.table}"

    def met(self, ctx, outcome):
        return not outcome.ok and re.search(rf"FAILED: table {self.table} differs", outcome.out) is not None


class SigningRefused:
    """`checkpoint` refuses (a message matching `pattern`), and no checkpoint is added."""

    command = "checkpoint"

    def __init__(self, pattern, what, signed):
        self.pattern, self.what, self.signed = pattern, what, signed

    def wanted(self):
        return f"checkpoint to refuse, naming {self.what}, and sign nothing"

    def met(self, ctx, outcome):
        stored = int(ctx.cluster.scalar(f"SELECT count(*) FROM ledger.checkpoints WHERE {where_log()}"))
        return (not outcome.ok and stored == len(self.signed)
                and re.search(r"not signing log", outcome.err) is not None
                and re.search(self.pattern, outcome.err) is not None)


def peaks(size):
    """(level, index) of the complete subtrees a tree of `size` leaves is made of, level 0 left out:
    the stored nodes its root is computed from, and that a larger tree is built on."""
    found, covered = [], 0
    for level in range(size.bit_length() - 1, -1, -1):
        if size & (1 << level):
            if level > 0:
                found.append((level, covered >> level))
            covered += 1 << level
    return found


def plan(ctx, state, case):
    """(SQL, description, expectation)."""
    n, rng = state.count, ctx.rng
    built = state.signed[-1]        # the tree is stored up to the newest checkpoint
    p = rng.randrange(2, n)          # strictly inside the log
    if case == "record-byte":
        length = int(ctx.cluster.scalar(f"SELECT length(record) FROM ledger.events WHERE {where_log(p)}"))
        sql, what = flip_byte("record", p, rng, length)
        return sql, f"position {p}: {what}", NamesPosition(p)
    if case == "leaf-hash-byte":
        sql, what = flip_byte("leaf_hash", p, rng, 32)
        return sql, f"position {p}: {what}", NamesPosition(p)
    if case == "chain-hash-byte":
        sql, what = flip_byte("chain_hash", p, rng, 32)
        return sql, f"position {p}: {what}", NamesPosition(p)
    if case == "delete-last-row":
        return f"DELETE FROM ledger.events WHERE {where_log(n)}", f"deleted the last row, position {n}", NamesPosition(n)
    if case == "swap-records":
        q = rng.randrange(p + 1, n + 1) if p < n else n
        sql = (f"UPDATE ledger.events e SET record = o.record, leaf_hash = o.leaf_hash, chain_hash = o.chain_hash "
               f"FROM {BACKUP} o WHERE e.log_id = '{LOG}' AND e.position IN ({p}, {q}) AND o.position = {p + q} - e.position")
        return sql, f"swapped record, leaf and chain hash of positions {p} and {q}", NamesPosition(p)
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
        return sql, f"inserted a forged row (hashes recomputed) at position {p}, moving the rest up", NamesPosition(p + 1)
    if case == "subject-column":
        p = int(ctx.cluster.scalar(f"SELECT position FROM {BACKUP} WHERE subject IS NOT NULL AND position > 1 "
                                   f"ORDER BY random() LIMIT 1"))
        return (f"UPDATE ledger.events SET subject = 'p_forged' WHERE {where_log(p)}",
                f"position {p}: column subject set to p_forged", NamesPosition(p))
    if case == "occurred-at-column":
        return (f"UPDATE ledger.events SET occurred_at = occurred_at + interval '1 day' WHERE {where_log(p)}",
                f"position {p}: column occurred_at one day later", NamesPosition(p))
    if case == "actor-kind-column":
        return (f"UPDATE ledger.events SET actor_kind = 'forged' WHERE {where_log(p)}",
                f"position {p}: column actor_kind set to forged", NamesPosition(p))
    if case == "schema-version-column":
        return (f"UPDATE ledger.events SET schema_version = schema_version + 1 WHERE {where_log(p)}",
                f"position {p}: column schema_version plus one", NamesPosition(p))
    if case == "type-column":
        return (f"UPDATE ledger.events SET type = 'ForgedType' WHERE {where_log(p)}",
                f"position {p}: column type set to ForgedType", NamesPosition(p))
    if case == "head-moved-back":
        return (f"UPDATE ledger.logs SET head_position = {n - 1}, head_chain_hash = "
                f"(SELECT chain_hash FROM {BACKUP} WHERE position = {n - 1}) WHERE log_id = '{LOG}'",
                f"the head row moved back to position {n - 1} (with that position's chain hash)", NamesPosition(n - 1, n))
    if case in ("merkle-node-byte", "merkle-node-deleted"):
        level = rng.randrange(1, built.bit_length())
        index = rng.randrange(built >> level)
        where = f"{where_log()} AND level = {level} AND index = {index}"
        if case == "merkle-node-deleted":
            return (f"DELETE FROM ledger.merkle_nodes WHERE {where}", f"deleted the Merkle node at level {level}, index {index}",
                    TreeProblem(rf"\b{built >> level} nodes at level {level}\b|holds {(built >> level) - 1} nodes at level {level},",
                                f"level {level}'s node count"))
        offset, mask = rng.randrange(32), rng.randrange(1, 256)
        return (f"UPDATE ledger.merkle_nodes SET hash = set_byte(hash, {offset}, get_byte(hash, {offset}) # {mask}) WHERE {where}",
                f"the Merkle node at level {level}, index {index}: byte {offset} XOR {mask}",
                TreeProblem(rf"node at level {level}, index {index} \(", f"the node at level {level}, index {index}"))
    if case.startswith("checkpoint-"):
        size = rng.choice(state.signed)
        where = f"{where_log()} AND tree_size = {size}"
        if case == "checkpoint-signature":
            # A character of the signature line (the note ends "…base64=\n").
            sql = (f"UPDATE ledger.checkpoints SET note = overlay(note PLACING CASE WHEN substr(note, length(note) - 4, 1) = 'A' "
                   f"THEN 'B' ELSE 'A' END FROM length(note) - 4 FOR 1) WHERE {where}")
            what = f"the checkpoint of {size} leaves: a character of its note's signature changed"
        else:
            column = "root_hash" if case == "checkpoint-root-column" else "chain_hash"
            offset, mask = rng.randrange(32), rng.randrange(1, 256)
            sql = f"UPDATE ledger.checkpoints SET {column} = set_byte({column}, {offset}, get_byte({column}, {offset}) # {mask}) WHERE {where}"
            what = f"the checkpoint of {size} leaves: byte {offset} of {column} XOR {mask}"
        return sql, what, TreeProblem(rf"checkpoint of {size} leaves", f"the checkpoint of {size} leaves")
    if case == "sign-over-record":
        p = rng.randrange(built + 1, n + 1)
        length = int(ctx.cluster.scalar(f"SELECT length(record) FROM ledger.events WHERE {where_log(p)}"))
        sql, what = flip_byte("record", p, rng, length)
        return (sql, f"position {p} (after the newest checkpoint, {built}): {what}",
                SigningRefused(rf"\bposition {p}\b", f"position {p}", state.signed))
    if case.startswith("report-"):
        first, last = ctx.cluster.query(f"SELECT to_char(min(occurred_at), 'YYYY-MM-DD'), "
                                        f"to_char(max(occurred_at) + interval '1 day', 'YYYY-MM-DD') FROM {BACKUP}")[0]
        expected = ReportIntegrityFails((first, last))
        below = rng.randrange(2, state.signed[0])      # strictly below the older checkpoint
        if case == "report-record-rewritten":
            # A JSON string's character changed, the record still readable: only its hashes can tell.
            sql = (f"UPDATE ledger.events SET record = convert_to(regexp_replace(convert_from(record, 'UTF8'), "
                   f"'\"eventId\":\"(.)', '\"eventId\":\"' || CASE WHEN substr(event_id::text, 1, 1) = 'a' THEN 'b' ELSE 'a' END), 'UTF8') "
                   f"WHERE {where_log(below)}")
            return sql, f"position {below} (below the checkpoint of {state.signed[0]}): its event id's first character changed", expected
        if case == "report-subject-column":
            below = int(ctx.cluster.scalar(f"SELECT position FROM {BACKUP} WHERE subject IS NOT NULL AND position < {state.signed[0]} "
                                           f"ORDER BY random() LIMIT 1"))
            return (f"UPDATE ledger.events SET subject = 'p_forged' WHERE {where_log(below)}",
                    f"position {below} (below the checkpoint): column subject set to p_forged", expected)
        if case == "report-swap-rows":
            sql = (f"UPDATE ledger.events SET position = 1000000 WHERE {where_log(below)}; "
                   f"UPDATE ledger.events SET position = {below} WHERE {where_log(below + 1)}; "
                   f"UPDATE ledger.events SET position = {below + 1} WHERE {where_log(1000000)}")
            return sql, f"rows {below} and {below + 1} (below the checkpoint) swapped", expected
        # The newest events deleted and the head moved back below the newest checkpoint.
        to = state.signed[1] - 1
        sql = (f"DELETE FROM ledger.events WHERE {where_log()} AND position > {to}; "
               f"UPDATE ledger.logs SET head_position = {to}, head_chain_hash = "
               f"(SELECT chain_hash FROM {BACKUP} WHERE position = {to}) WHERE log_id = '{LOG}'")
        return sql, f"positions after {to} deleted and the head moved back below the checkpoint of {state.signed[1]}", expected
    if case == "projection-row-deleted":
        return (f"DELETE FROM anomalies.findings WHERE {where_log()} AND position = "
                f"(SELECT position FROM {FINDINGS_BACKUP} ORDER BY random() LIMIT 1)",
                "a row of anomalies.findings deleted", ProjectionsDiffer("findings"))
    if case == "sign-over-node":
        level, index = rng.choice(peaks(built))
        offset, mask = rng.randrange(32), rng.randrange(1, 256)
        return (f"UPDATE ledger.merkle_nodes SET hash = set_byte(hash, {offset}, get_byte(hash, {offset}) # {mask}) "
                f"WHERE {where_log()} AND level = {level} AND index = {index}",
                f"the Merkle node at level {level}, index {index}, one the tree of the newest checkpoint ({built}) "
                f"is made of: byte {offset} XOR {mask}",
                SigningRefused(rf"tree of {built} leaves", f"the tree of {built} leaves", state.signed))
    raise ValueError(case)


def restore(ctx):
    rows = " ".join(f"DELETE FROM {table} WHERE {where_log()}; INSERT INTO {table} SELECT * FROM {backup};"
                    for table, backup in BACKUPS if table != "ledger.logs")
    ctx.cluster.query(tampering(
        rows + f" UPDATE ledger.logs l SET head_position = h.head_position, head_chain_hash = h.head_chain_hash "
        f"FROM {HEAD_BACKUP} h WHERE l.log_id = h.log_id"))
    differing = ctx.cluster.scalar("SELECT " + " + ".join(
        f"(SELECT count(*) FROM (SELECT * FROM {table} WHERE {where_log()} EXCEPT SELECT * FROM {backup}) a) "
        f"+ (SELECT count(*) FROM (SELECT * FROM {backup} EXCEPT SELECT * FROM {table} WHERE {where_log()}) b)"
        for table, backup in BACKUPS))
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
        outcome = ctx.ledger.run(expected.command, *getattr(expected, "args", ()), "--log", LOG)
        if not expected.met(ctx, outcome):
            state.by_case[case][1] += 1
            raise Violation(f"{case}: {what}; expected {expected.wanted()}\n"
                            f"tampering (psql as postgres on {ctx.cluster.socket_dir}): {sql}\n" + outcome.describe())
    finally:
        restore(ctx)


def teardown(ctx, state):
    try:
        restore(ctx)
    finally:
        ctx.cluster.query("DROP TABLE IF EXISTS " + ", ".join(backup for _, backup in BACKUPS))


def summary(state):
    missed = [f"{case} {bad}/{tried}" for case, (tried, bad) in state.by_case.items() if bad]
    return ("missed: " + ", ".join(missed)) if missed else ""
