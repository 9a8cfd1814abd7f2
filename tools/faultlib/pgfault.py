"""The database going away under appends: the shared body of postgres-killed (SIGKILL of the
postmaster) and postgres-stopped (`pg_ctl stop -m immediate`). Odd trials interrupt CLI appends,
even trials interrupt `serve` appends; serve is started once and never restarted."""
import json
import os
import signal
import time

from . import checks
from .checks import Violation
from .history import check_prefix, full_append_seconds, simulated
from .ingest import Sent, Writers, check_stored, post, settle
from .keys import create_key
from .server import Client, Server, await_ready

CLIENTS = 4
DOWN_SECONDS = 3.0


class State:
    def __init__(self, history, full_seconds, server, token, log):
        self.history, self.full_seconds = history, full_seconds
        self.server, self.token, self.log = server, token, log
        self.sents = []
        self.down_answers = {}
        self.recoveries = []


def setup(ctx, trials, prefix):
    history = simulated(ctx)
    log = f"{prefix}-serve"
    token = create_key(ctx.ledger, log)
    server = Server(ctx.ledger, ctx.workdir)
    ctx.on_exit(server.kill)
    server.start()
    return State(history, full_append_seconds(ctx, history), server, token, log)


def take_down(ctx, mode):
    """Kills or immediately stops the database; returns what was done, for the report."""
    if mode == "kill":
        pid = ctx.cluster.kill_postmaster()
        return f"SIGKILL to the postmaster (pid {pid})"
    outcome = ctx.cluster.stop_immediate()
    if not outcome.ok:
        raise Violation("pg_ctl stop -m immediate failed:\n" + outcome.describe())
    return "pg_ctl stop -m immediate"


def trial(ctx, state, number, mode, prefix):
    if number % 2 == 1:
        cli_trial(ctx, state, number, mode, prefix)
    else:
        serve_trial(ctx, state, number, mode)


def cli_trial(ctx, state, number, mode, prefix):
    log = f"{prefix}-cli-{number}"
    batch = ctx.rng.choice((10, 50, 100, 250))
    delay = ctx.rng.uniform(0.3, state.full_seconds)
    argv = ("append", "--log", log, "--batch-size", batch, "--verbose", "--file", state.history.path)
    out_path = ctx.path(f"{log}.out")
    with open(out_path, "wb") as out:
        process = ctx.ledger.start(*argv, stdout=out)
        time.sleep(delay)
        done = take_down(ctx, mode)
        ctx.cluster.start()
        try:
            process.wait(timeout=180)
            _, err = process.communicate()
        except Exception:
            os.killpg(process.pid, signal.SIGKILL)
            raise Violation(f"append was still running 180 s after the database came back: "
                            f"{ctx.ledger.run_line(*argv)}")
    where = (f"trial {number}: {done} {delay:.2f} s into {ctx.ledger.run_line(*argv)} "
             f"(exit {process.returncode})")
    err = err.decode(errors="replace")
    if process.returncode != 0 and not err.strip():
        raise Violation(f"{where}: append failed without a word on stderr")
    acknowledged = []
    with open(out_path) as handle:
        for line in handle:
            if line.strip():
                acknowledged.append(json.loads(line))
    rows = checks.read_log(ctx.ledger, ctx.cluster, log)
    at = checks.check_gapless(rows, where)
    kept = check_prefix(rows, state.history, where)
    if kept % batch != 0 and kept != len(state.history):
        raise Violation(f"{where}: {kept} events stored, not a whole number of batches of {batch}")
    for ack in acknowledged:
        if at.get(ack["eventId"]) != ack["position"]:
            raise Violation(f"{where}: line {ack['line']} (event {ack['eventId']}) was acknowledged at position "
                            f"{ack['position']} but is stored at {at.get(ack['eventId'])}")
    if process.returncode == 0 and kept != len(state.history):
        raise Violation(f"{where}: append exited 0 but only {kept} of {len(state.history)} events are stored")
    if rows:
        checks.verify(ctx.ledger, log)
    again = ctx.ledger.run(*argv)
    if not again.ok:
        raise Violation(f"{where}: the same command again failed:\n" + again.describe())
    rows = checks.read_log(ctx.ledger, ctx.cluster, log)
    checks.check_gapless(rows, where + ", after the rerun")
    if check_prefix(rows, state.history, where + ", after the rerun") != len(state.history):
        raise Violation(f"{where}: after the rerun {len(rows)} of {len(state.history)} events are stored")
    checks.verify(ctx.ledger, log)


def serve_trial(ctx, state, number, mode):
    server = state.server
    if server.process.poll() is not None:
        raise Violation(f"trial {number}: serve is no longer running (exit {server.process.returncode}); "
                        f"log {server.log_path}:\n{server.crash_report()}")
    writers = Writers(server.port, state.token, state.log, CLIENTS, f"subject-{state.log}{number}",
                      allowed=(200, 201, 503, 429))
    writers.start()
    delay = ctx.rng.uniform(0.3, 2.5)
    time.sleep(delay)
    done = take_down(ctx, mode)
    where = (f"trial {number}: {done} {delay:.2f} s into {CLIENTS} clients' appends to serve "
             f"(port {server.port}, log {server.log_path})")
    problems = []
    probe = Client(server.port, state.token, timeout=30)
    try:
        time.sleep(0.5)
        started = time.monotonic()
        ready = probe.request("GET", "/ready")
        if ready.status != 503 or "retry-after" not in ready.headers:
            problems.append(f"/ready while the database is down answered {ready!r} "
                            f"(headers {ready.headers}), expected 503 with Retry-After")
        probe_event = Sent(checks.new_event(f"subject-{state.log}{number}-probe", "any"))
        reply = post(probe, state.log, probe_event)
        waited = time.monotonic() - started
        state.down_answers[reply.status] = state.down_answers.get(reply.status, 0) + 1
        if reply.status != 503 or "retry-after" not in reply.headers:
            problems.append(f"an append while the database is down answered {reply!r} "
                            f"(headers {reply.headers}), expected 503 with Retry-After")
        elif waited > 15:
            problems.append(f"an append while the database is down took {waited:.1f} s to be refused")
        time.sleep(max(0.0, DOWN_SECONDS - (time.monotonic() - started)))
    finally:
        ctx.cluster.start()
    recovered, ready = await_ready(server, probe, time.monotonic())
    if recovered is None:
        writers.finish()
        raise Violation(f"{where}: serve did not recover by itself within 60 s of the database's restart "
                        f"(last /ready: {ready!r}; serve {'exited' if server.process.poll() is not None else 'running'}):\n"
                        + (server.crash_report() if server.process.poll() is not None else server.tail()))
    state.recoveries.append(recovered)
    time.sleep(1.0)
    writers.finish()
    probe.close()
    sents = writers.all_sent() + [probe_event]
    problems += writers.problems
    if problems:
        raise Violation(where + "\n" + "\n".join(problems[:6]))
    settle(server.port, state.token, state.log, sents, where)
    state.sents.extend(sents)
    check_stored(ctx.ledger, ctx.cluster, state.log, state.sents, where)


def teardown(ctx, state):
    if state:
        state.server.stop()


def summary(state):
    if not state.recoveries:
        return ""
    return (f"serve back {max(state.recoveries):.1f} s at most after the database; "
            f"appends while down answered {state.down_answers}")
