"""server-killed: SIGKILL of `consent-ledger serve` under concurrent single-event appends."""
import time

from .checks import Violation
from .ingest import Writers, check_stored, settle
from .keys import create_key
from .server import Server

NAME = "server-killed"
INVARIANT = ("after SIGKILL of serve under 6 clients: every 201/200 stored once at its position; resent "
             "requests after restart are replays, never a second copy")
DEFAULT_TRIALS = 20
QUICK_TRIALS = 2
QUICK_SECONDS = 40
LOG = "sk"
CLIENTS = 6


class State:
    def __init__(self, server, token):
        self.server, self.token = server, token
        self.sents = []
        self.in_flight = 0


def setup(ctx, trials):
    token = create_key(ctx.ledger, LOG)
    server = Server(ctx.ledger, ctx.workdir)
    ctx.on_exit(server.kill)
    return State(server, token)


def trial(ctx, state, number):
    server = state.server
    server.start()
    writers = Writers(server.port, state.token, LOG, CLIENTS, f"subject-sk{number}")
    writers.start()
    delay = ctx.rng.uniform(0.2, 3.0)
    time.sleep(delay)
    server.kill()
    writers.finish()
    sents = writers.all_sent()
    unknown = sum(1 for s in sents if not s.acknowledged)
    state.in_flight += unknown
    where = (f"trial {number}: serve (port {server.port}) SIGKILLed {delay:.2f} s into {CLIENTS} clients' appends; "
             f"{len(sents)} requests, {len(sents) - unknown} acknowledged, {unknown} without an answer; "
             f"server log {server.log_path}")
    if writers.problems:
        raise Violation(where + "\n" + "\n".join(writers.problems[:5]))
    server.start()
    settle(server.port, state.token, LOG, sents, where)
    state.sents.extend(sents)
    check_stored(ctx.ledger, ctx.cluster, LOG, state.sents, where)
    server.stop()


def teardown(ctx, state):
    if state:
        state.server.stop()


def summary(state):
    return f"{len(state.sents)} requests, {state.in_flight} cut off by the kill"
