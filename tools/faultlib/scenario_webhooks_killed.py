"""webhooks-killed: serve SIGKILLed and the webhook receiver SIGKILLed and restarted while a
subscription is being delivered under concurrent appends (issue 42, decisions 0083 and 0084)."""
import json
import os
import signal
import subprocess
import sys
import time
import uuid

from . import checks
from .checks import Violation
from .ingest import Writers, check_stored, settle
from .keys import create_key
from .server import Server, free_port

NAME = "webhooks-killed"
INVARIANT = ("with serve and the webhook receiver SIGKILLed during deliveries: every stored event the "
             "subscription asks for reaches the receiver, first times in log order, none skipped, each "
             "signature valid; repeats only of items already sent (at least once); every ConsentRescinded "
             "delivered has its WithdrawalDelivered, one per 2xx delivery and none without one")
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


def event(stream, n):
    """Each writer's fourth event a withdrawal of consent (a production ConsentRescinded whose
    signature verified), the others AgeRangeShared."""
    if n % 4 != 3:
        return checks.new_event(stream, "any", stream.replace("subject-", ""))
    return {
        "eventId": str(uuid.uuid4()), "stream": stream, "type": "ConsentRescinded", "schemaVersion": 1,
        "occurredAt": "2026-11-20T16:05:00Z", "subject": stream.replace("subject-", ""), "actor": {"kind": "system"},
        "app": {"bundleId": "com.example.kidsdraw", "appVersion": "3.0.0", "platform": "iOS", "osVersion": "26.1",
                "environment": "production"},
        "jurisdiction": {"code": "US-TX", "basis": "asserted"}, "expectedVersion": "any",
        "payload": {"notificationUUID": str(uuid.uuid4()), "signedDate": 1795000000000, "bundleId": "com.example.kidsdraw",
                    "environment": "Production", "signatureCheck": "valid", "enforcementAction": "accessRevoked"},
    }


# In one snapshot: 2xx deliveries of a ConsentRescinded without their WithdrawalDelivered, WithdrawalDelivered
# without a 2xx delivery of a ConsentRescinded (by the idempotency key it is stored under, decision 0084), the
# log's ConsentRescinded with none, and how many were recorded.
WITHDRAWALS = f"""
SELECT (SELECT count(*) FROM ledger.deliveries d JOIN ledger.events e ON e.log_id = d.log_id AND e.position = d.position
         WHERE d.log_id = '{LOG}' AND e.type = 'ConsentRescinded' AND d.status BETWEEN 200 AND 299
           AND NOT EXISTS (SELECT 1 FROM ledger.events w WHERE w.log_id = d.log_id AND w.type = 'WithdrawalDelivered'
                             AND w.idempotency_key = 'withdrawal-delivered:' || d.delivery_id
                             AND w.causation_id = e.event_id::text)),
       (SELECT count(*) FROM ledger.events w WHERE w.log_id = '{LOG}' AND w.type = 'WithdrawalDelivered'
           AND NOT EXISTS (SELECT 1 FROM ledger.deliveries d JOIN ledger.events e ON e.log_id = d.log_id AND e.position = d.position
                            WHERE d.log_id = w.log_id AND w.idempotency_key = 'withdrawal-delivered:' || d.delivery_id
                              AND d.status BETWEEN 200 AND 299 AND e.type = 'ConsentRescinded')),
       (SELECT count(*) FROM ledger.events r WHERE r.log_id = '{LOG}' AND r.type = 'ConsentRescinded'
           AND NOT EXISTS (SELECT 1 FROM ledger.events w WHERE w.log_id = r.log_id AND w.type = 'WithdrawalDelivered'
                             AND w.causation_id = r.event_id::text)),
       (SELECT count(*) FROM ledger.events WHERE log_id = '{LOG}' AND type = 'WithdrawalDelivered')
"""


class State:
    def __init__(self, server, token, receiver, subscription):
        self.server, self.token, self.receiver, self.subscription = server, token, receiver, subscription
        self.sents = []
        self.repeats = 0
        self.withdrawals = 0


def setup(ctx, trials):
    token = create_key(ctx.ledger, LOG)
    secret_file = ctx.path("webhook.secret")
    receiver = Receiver(ctx.workdir, secret_file)
    created = ctx.ledger.run("subscriptions", "create", "--log", LOG, "--url", f"http://127.0.0.1:{receiver.port}/hook",
                             "--event-type", "AgeRangeShared", "--event-type", "ConsentRescinded", "--label", "tools/faults")
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
    writers = Writers(server.port, state.token, LOG, CLIENTS, f"subject-wh{number}", make_event=event)
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
    # Every AgeRangeShared and ConsentRescinded of the log, in log order: what the subscription must have delivered.
    wanted = [int(row[0]) for row in ctx.cluster.query(
        f"SELECT position FROM ledger.events WHERE log_id = '{LOG}' AND type IN ('AgeRangeShared', 'ConsentRescinded') "
        "ORDER BY position")]
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
    # Every rescission delivered is recorded as told, once per 2xx delivery, in the delivery's own
    # transaction: never a delivery without its event, never an event without its delivery.
    while True:
        untold, unvouched, never_told, recorded = (int(value) for value in ctx.cluster.query(WITHDRAWALS)[0])
        if untold or unvouched:
            raise Violation(f"{where}: {untold} 2xx deliveries of a ConsentRescinded without their WithdrawalDelivered, "
                            f"{unvouched} WithdrawalDelivered without one")
        if never_told == 0:
            break
        if time.monotonic() > deadline:
            raise Violation(f"{where}: {never_told} ConsentRescinded delivered but recorded as told by no WithdrawalDelivered")
        time.sleep(0.2)
    state.withdrawals = recorded
    server.stop()


def teardown(ctx, state):
    if state:
        state.server.stop()
        state.receiver.kill()


def summary(state):
    return (f"{len(state.sents)} requests, {len(state.receiver.received()) - state.repeats} items delivered, "
            f"{state.repeats} sent again after a kill, {state.withdrawals} WithdrawalDelivered recorded")
