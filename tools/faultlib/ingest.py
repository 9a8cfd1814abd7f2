"""Concurrent HTTP clients that append single events (each with its own Idempotency-Key) and keep
a ledger of what they sent and what they were told: the shared part of server-killed and
postgres-killed."""
import json
import threading
import time

from . import checks
from .checks import Violation
from .server import Client


class Sent:
    """One request: its body and key, and its definitive answer once it has one."""

    def __init__(self, event):
        self.event_id = event["eventId"]
        self.body = json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n"
        self.key = "faults-" + self.event_id
        self.position = None        # set when acknowledged (201 or 200)
        self.replies = []

    @property
    def acknowledged(self):
        return self.position is not None


def post(client, log, sent):
    reply = client.request("POST", f"/v1/logs/{log}/events", sent.body, {"Idempotency-Key": sent.key})
    sent.replies.append(reply)
    return reply


def acknowledge(sent, reply, where):
    """Records a 201/200 answer's position; a second answer must give the same position."""
    body = reply.json() or {}
    events = body.get("events") or []
    if len(events) != 1 or events[0].get("eventId") != sent.event_id:
        raise Violation(f"{where}: answer {reply!r} does not name event {sent.event_id}")
    position = events[0]["position"]
    if sent.position is not None and position != sent.position:
        raise Violation(f"{where}: event {sent.event_id} was acknowledged at position {sent.position}, "
                        f"the retry answered position {position} ({reply!r}): a second copy")
    sent.position = position


class Writers:
    """`count` threads posting single events to `log` until stopped: `make_event(stream, n)` makes
    each thread's n-th (from 0), an AgeRangeShared (checks.new_event) unless given."""

    def __init__(self, port, token, log, count, stream_prefix, allowed=(200, 201), make_event=None):
        self.port, self.token, self.log, self.count = port, token, log, count
        self.stream_prefix, self.allowed = stream_prefix, allowed
        self.make_event = make_event or (lambda stream, _: checks.new_event(stream, "any", stream.replace("subject-", "")))
        self.sent = [[] for _ in range(count)]
        self.stop = threading.Event()
        self.problems = []
        self.statuses = {}
        self.threads = []

    def start(self):
        for index in range(self.count):
            thread = threading.Thread(target=self._loop, args=(index,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def _loop(self, index):
        client = Client(self.port, self.token, timeout=20)
        stream = f"{self.stream_prefix}-{index}"
        while not self.stop.is_set():
            sent = Sent(self.make_event(stream, len(self.sent[index])))
            self.sent[index].append(sent)
            reply = post(client, self.log, sent)
            self.statuses[reply.status] = self.statuses.get(reply.status, 0) + 1
            if reply.status in (200, 201):
                try:
                    acknowledge(sent, reply, f"writer {index}")
                except Violation as violation:
                    self.problems.append(str(violation))
            elif reply.status is None:
                time.sleep(0.05)
            elif reply.status not in self.allowed:
                self.problems.append(f"writer {index}: event {sent.event_id} answered {reply!r}")
            elif reply.status == 503 and "retry-after" not in reply.headers:
                self.problems.append(f"writer {index}: 503 without Retry-After: {reply!r}")
            else:
                time.sleep(0.05)
        client.close()

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def all_sent(self):
        return [s for per_thread in self.sent for s in per_thread]


def settle(port, token, log, sents, where, resend_acknowledged=3, deadline_seconds=90):
    """Sends every unacknowledged request again, unchanged, until it has an answer; and a few
    acknowledged ones, which must be replays at their original positions."""
    client = Client(port, token, timeout=20)
    deadline = time.monotonic() + deadline_seconds
    replays_checked = 0
    for sent in sents:
        was_acknowledged = sent.acknowledged
        if was_acknowledged and replays_checked >= resend_acknowledged:
            continue
        while True:
            reply = post(client, log, sent)
            if reply.status in (200, 201):
                if was_acknowledged and (reply.status != 200 or (reply.json() or {}).get("idempotentReplay") is not True):
                    raise Violation(f"{where}: acknowledged event {sent.event_id} (position {sent.position}) sent "
                                    f"again was answered {reply!r}, expected a replay (200, idempotentReplay)")
                acknowledge(sent, reply, where)
                replays_checked += was_acknowledged
                break
            if reply.status not in (None, 503, 429) or time.monotonic() > deadline:
                raise Violation(f"{where}: resending event {sent.event_id} (key {sent.key}) was answered {reply!r}")
            time.sleep(float(reply.headers.get("retry-after", "0.5")) if reply.status else 0.5)
    client.close()


def check_stored(ledger, cluster, log, sents, where):
    """Every request acknowledged: its event once, at the position it was told; the log gapless;
    verify passes."""
    rows = checks.read_log(ledger, cluster, log)
    at = checks.check_gapless(rows, f"{where}: log {log}")
    for sent in sents:
        if not sent.acknowledged:
            raise Violation(f"{where}: event {sent.event_id} never acknowledged")
        if at.get(sent.event_id) != sent.position:
            raise Violation(f"{where}: event {sent.event_id} was acknowledged at position {sent.position} "
                            f"but is stored at {at.get(sent.event_id)}")
    checks.verify(ledger, log)
    return rows
