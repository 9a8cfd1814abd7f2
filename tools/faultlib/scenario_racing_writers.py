"""racing-writers: writers racing on one stream with exact expected versions, and racing appends
that share one idempotency key; over HTTP (`serve`) and over SQL (psql as the app role)."""
import json
import threading

from . import checks
from .checks import Violation
from .cluster import APP
from .keys import create_key
from .server import Client, Server

NAME = "racing-writers"
INVARIANT = ("per stream version exactly one winner, every loser told (409 / CL001); one idempotency key "
             "raced: one batch stored, every caller the same positions")
DEFAULT_TRIALS = 2500       # rounds; WRITERS attempts each: 10,000 attempts
QUICK_TRIALS = 40
QUICK_SECONDS = 40
WRITERS = 4
HTTP_LOG, SQL_LOG = "race", "race-sql"
CHECK_EVERY = 500


class State:
    def __init__(self, server, token):
        self.server, self.token = server, token
        self.clients = [Client(server.port, token) for _ in range(WRITERS)]
        self.version = {HTTP_LOG: 0, SQL_LOG: 0}          # of the raced stream
        self.winners = {HTTP_LOG: {}, SQL_LOG: {}}        # stream version -> event id
        self.batches = {HTTP_LOG: [], SQL_LOG: []}        # (event ids, positions) per idempotent race
        self.attempts = 0


def setup(ctx, trials):
    token = create_key(ctx.ledger, HTTP_LOG)
    server = Server(ctx.ledger, ctx.workdir)
    ctx.on_exit(server.kill)
    server.start()
    return State(server, token)


def race(actions):
    """Runs the actions at once (a barrier releases them together); returns their results."""
    barrier = threading.Barrier(len(actions))
    results = [None] * len(actions)

    def run(index):
        barrier.wait()
        results[index] = actions[index]()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def canonical(event):
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def trial(ctx, state, number):
    kind = ("sql-version" if number % 20 == 0 else "sql-idempotency" if number % 20 == 10
            else "http-idempotency" if number % 5 == 0 else "http-version")
    {"http-version": http_version, "http-idempotency": http_idempotency,
     "sql-version": sql_version, "sql-idempotency": sql_idempotency}[kind](ctx, state, number)
    if number % CHECK_EVERY == 0 or number == ctx.trials:
        check_logs(ctx, state)


def expected_of(version):
    return "noStream" if version == 0 else version


def http_version(ctx, state, number):
    version = state.version[HTTP_LOG]
    events = [checks.new_event("subject-race", expected_of(version), "race") for _ in range(WRITERS)]
    replies = race([lambda c=c, e=e: c.request("POST", f"/v1/logs/{HTTP_LOG}/events", canonical(e) + "\n")
                    for c, e in zip(state.clients, events)])
    state.attempts += WRITERS
    winners = [i for i, r in enumerate(replies) if r.status == 201]
    where = f"round {number} (HTTP, stream subject-race at version {version}, {WRITERS} writers)"
    if len(winners) != 1:
        raise Violation(f"{where}: {len(winners)} writers got 201, expected exactly one: {replies}")
    for i, reply in enumerate(replies):
        if i in winners:
            continue
        problem = reply.json() or {}
        if reply.status != 409 or not str(problem.get("type", "")).endswith("wrong-expected-version"):
            raise Violation(f"{where}: a loser was answered {reply!r}, expected 409 wrong-expected-version")
    body = replies[winners[0]].json()
    got = body["events"][0]
    if got["streamVersion"] != version + 1 or got["eventId"] != events[winners[0]]["eventId"]:
        raise Violation(f"{where}: the winner's answer {body} is not stream version {version + 1}")
    state.winners[HTTP_LOG][version + 1] = got["eventId"]
    state.version[HTTP_LOG] = version + 1


def http_idempotency(ctx, state, number):
    events = [checks.new_event(f"subject-idem-{number}", "any", f"idem-{number}") for _ in range(2)]
    body = "".join(canonical(e) + "\n" for e in events)
    key = f"race-{number}"
    replies = race([lambda c=c: c.request("POST", f"/v1/logs/{HTTP_LOG}/events", body, {"Idempotency-Key": key})
                    for c in state.clients])
    state.attempts += WRITERS
    where = f"round {number} (HTTP, {WRITERS} writers sending one batch of 2 events with Idempotency-Key {key})"
    created = [r for r in replies if r.status == 201]
    replayed = [r for r in replies if r.status == 200 and (r.json() or {}).get("idempotentReplay") is True]
    if len(created) != 1 or len(replayed) != WRITERS - 1:
        raise Violation(f"{where}: expected one 201 and {WRITERS - 1} replays (200), got {replies}")
    positions = {tuple(e["position"] for e in r.json()["events"]) for r in replies}
    if len(positions) != 1:
        raise Violation(f"{where}: callers were given different positions: {sorted(positions)}")
    state.batches[HTTP_LOG].append(([e["eventId"] for e in events], positions.pop()))


def sql_call(ctx, log, bodies, expected=None, key=None):
    array = "ARRAY[" + ",".join(f"$ev${b}$ev$" for b in bodies) + "]"
    versions = "NULL" if expected is None else "ARRAY[" + ",".join(f"'{v}'" for v in expected) + "]"
    key_sql = "NULL" if key is None else f"'{key}'"
    sql = (f"SELECT position, event_id, stream_version, idempotent_replay FROM "
           f"ledger.append_events('{log}', {array}, {versions}, {key_sql})")
    return ctx.cluster.psql(sql, user=APP)


def sql_version(ctx, state, number):
    version = state.version[SQL_LOG]
    events = []
    for _ in range(WRITERS):
        event = checks.new_event("subject-race", None, "race")
        del event["expectedVersion"]
        events.append(event)
    outcomes = race([lambda e=e: sql_call(ctx, SQL_LOG, [canonical(e)], [expected_of(version)]) for e in events])
    state.attempts += WRITERS
    where = f"round {number} (SQL as {APP}, stream subject-race at version {version}, {WRITERS} writers)"
    winners = [i for i, o in enumerate(outcomes) if o.ok]
    if len(winners) != 1:
        raise Violation(f"{where}: {len(winners)} calls succeeded, expected exactly one:\n"
                        + "\n".join(o.describe(400) for o in outcomes))
    for i, outcome in enumerate(outcomes):
        if i not in winners and "CL001" not in outcome.err:
            raise Violation(f"{where}: a loser was not told CL001:\n" + outcome.describe())
    row = outcomes[winners[0]].out.strip().split("|")
    if int(row[2]) != version + 1 or row[1] != events[winners[0]]["eventId"]:
        raise Violation(f"{where}: the winner got {row}, not stream version {version + 1}")
    state.winners[SQL_LOG][version + 1] = row[1]
    state.version[SQL_LOG] = version + 1


def sql_idempotency(ctx, state, number):
    events = [checks.new_event(f"subject-idem-{number}", None, f"idem-{number}") for _ in range(2)]
    for event in events:
        del event["expectedVersion"]
    bodies = [canonical(e) for e in events]
    key = f"race-sql-{number}"
    outcomes = race([lambda: sql_call(ctx, SQL_LOG, bodies, None, key) for _ in range(WRITERS)])
    state.attempts += WRITERS
    where = f"round {number} (SQL as {APP}, {WRITERS} callers, one batch of 2 events, idempotency key {key})"
    if not all(o.ok for o in outcomes):
        raise Violation(f"{where}: a call failed:\n" + "\n".join(o.describe(400) for o in outcomes if not o.ok))
    answers = [[line.split("|") for line in o.out.strip().splitlines()] for o in outcomes]
    positions = {tuple(int(r[0]) for r in rows) for rows in answers}
    fresh = [rows for rows in answers if rows and rows[0][3] == "f"]
    if len(positions) != 1 or len(fresh) != 1:
        raise Violation(f"{where}: expected one fresh append and {WRITERS - 1} replays with the same positions, got "
                        + "; ".join(o.out.strip().replace("\n", " ") for o in outcomes))
    state.batches[SQL_LOG].append(([e["eventId"] for e in events], positions.pop()))


def check_logs(ctx, state):
    for log in (HTTP_LOG, SQL_LOG):
        rows = checks.read_log(ctx.ledger, ctx.cluster, log)
        at = checks.check_gapless(rows, f"log {log}")
        raced = {row[2]: row[1] for row in rows if row[3] == "subject-race"}
        if raced != state.winners[log]:
            wrong = sorted(v for v in set(raced) | set(state.winners[log]) if raced.get(v) != state.winners[log].get(v))
            raise Violation(f"log {log}: stream subject-race does not hold exactly the winners; first differing "
                            f"version {wrong[0]}: stored {raced.get(wrong[0])}, winner {state.winners[log].get(wrong[0])}")
        for ids, positions in state.batches[log]:
            stored = tuple(at.get(i) for i in ids)
            if stored != positions:
                raise Violation(f"log {log}: idempotent batch {ids} is stored at {stored}, callers were told {positions}")
        if rows:
            checks.verify(ctx.ledger, log)


def teardown(ctx, state):
    if state:
        for client in state.clients:
            client.close()
        state.server.stop()


def summary(state):
    return f"{state.attempts} attempts"
