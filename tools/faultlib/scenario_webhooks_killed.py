"""webhooks-killed: serve SIGKILLed and the webhook receiver SIGKILLed and restarted while a
subscription is being delivered under concurrent appends (issue 42, decision 0083)."""
import json
import os
import signal
import subprocess
import sys
import time

from .checks import Violation
from .ingest import Writers, check_stored, settle
from .keys import create_key
from .server import Server, free_port

NAME = "webhooks-killed"
INVARIANT = ("with serve and the webhook receiver SIGKILLed during deliveries: every stored event the "
             "subscription asks for reaches the receiver, first times in log order, none skipped, each "
             "signature valid; repeats only of items already sent (at least once)")
DEFAULT_TRIALS = 10
QUICK_TRIALS = 2
QUICK_SECONDS = 60
LOG = "wh"
CLIENTS = 3
RECEIVER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "webhook_receiver.py")


class Receiver:
    """tools/webhook_receiver.py on a port of its own; its deliveries appended to one file across restarts."""

    def __init__(self, workdir, secret_file):
        self.port = free_port()
        self.out = os.path.join(workdir, "received.ndjson")
        self.log = os.path.join(workdir, "receiver.log")
        self.secret_file = secret_file
        self.process = None

    def start(self):
        log = open(self.log, "ab")
        self.process = subprocess.Popen([sys.executable, RECEIVER, "--port", str(self.port), "--secret-file", self.secret_file,
                                         "--out", self.out], stdout=log, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with open(self.log, errors="replace") as handle:
                if f"127.0.0.1:{self.port}" in handle.read().split("webhook receiver on")[-1]:
                    return
            if self.process.poll() is not None:
                raise RuntimeError(f"the receiver exited with {self.process.returncode}; see {self.log}")
            time.sleep(0.05)
        raise RuntimeError(f"the receiver did not start; see {self.log}")

    def kill(self):
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def received(self):
        try:
            with open(self.out) as handle:
                return [json.loads(line) for line in handle if line.strip()]
        except OSError:
            return []


class State:
    def __init__(self, server, token, receiver, subscription):
        self.server, self.token, self.receiver, self.subscription = server, token, receiver, subscription
        self.sents = []
        self.repeats = 0


def setup(ctx, trials):
    token = create_key(ctx.ledger, LOG)
    secret_file = ctx.path("webhook.secret")
    receiver = Receiver(ctx.workdir, secret_file)
    created = ctx.ledger.run("subscriptions", "create", "--log", LOG, "--url", f"http://127.0.0.1:{receiver.port}/hook",
                             "--event-type", "AgeRangeShared", "--label", "tools/faults")
    lines = created.out.strip().splitlines()
    if not created.ok or len(lines) != 2 or not lines[1].startswith("whsec_"):
        raise RuntimeError("subscriptions create failed:\n" + created.describe())
    with open(secret_file, "w") as handle:
        handle.write(lines[1])
    receiver.start()
    ctx.on_exit(receiver.kill)
    server = Server(ctx.ledger, ctx.workdir)
    ctx.on_exit(server.kill)
    return State(server, token, receiver, lines[0])


def trial(ctx, state, number):
    server, receiver = state.server, state.receiver
    server.start()
    writers = Writers(server.port, state.token, LOG, CLIENTS, f"subject-wh{number}")
    writers.start()
    receiver_down = ctx.rng.uniform(0.3, 2.0)
    server_killed = ctx.rng.uniform(0.5, 3.0)
    time.sleep(receiver_down)
    receiver.kill()
    time.sleep(ctx.rng.uniform(0.2, 1.5))
    receiver.start()
    time.sleep(max(0.0, server_killed - receiver_down))
    server.kill()
    writers.finish()
    sents = writers.all_sent()
    where = (f"trial {number}: receiver SIGKILLed {receiver_down:.2f} s and serve {server_killed:.2f} s into {CLIENTS} "
             f"clients' appends; server log {server.log_path}; receiver {receiver.out}")
    if writers.problems:
        raise Violation(where + "\n" + "\n".join(writers.problems[:5]))
    server.start()
    settle(server.port, state.token, LOG, sents, where)
    state.sents.extend(sents)
    check_stored(ctx.ledger, ctx.cluster, LOG, state.sents, where)
    # Every AgeRangeShared of the log, in log order: what the subscription must have delivered.
    wanted = [int(row[0]) for row in ctx.cluster.query(
        f"SELECT position FROM ledger.events WHERE log_id = '{LOG}' AND type = 'AgeRangeShared' ORDER BY position")]
    deadline = time.monotonic() + 120
    while True:
        received = receiver.received()
        firsts, seen = [], set()
        for item in received:
            if item.get("badSignature"):
                raise Violation(f"{where}: a delivery's signature did not verify")
            if item["id"] not in seen:
                seen.add(item["id"])
                firsts.append(item["position"])
        if firsts == wanted:
            break
        if firsts != wanted[:len(firsts)]:
            raise Violation(f"{where}: deliveries out of log order or skipping: received {firsts[:20]}…, "
                            f"the log's {wanted[:20]}…")
        if time.monotonic() > deadline:
            listed = ctx.ledger.run("subscriptions", "list", "--log", LOG)
            raise Violation(f"{where}: after 120 s the receiver had {len(firsts)} of {len(wanted)} items:\n{listed.out}")
        time.sleep(0.2)
    state.repeats = len(received) - len(firsts)
    server.stop()


def teardown(ctx, state):
    if state:
        state.server.stop()
        state.receiver.kill()


def summary(state):
    return (f"{len(state.sents)} requests, {len(state.receiver.received()) - state.repeats} items delivered, "
            f"{state.repeats} sent again after a kill")
