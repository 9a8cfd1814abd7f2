#!/usr/bin/env python3
"""Webhook deliveries measured (issue 42), driven by tools/bench-webhooks against a live serve and a
real receiver (tools/webhook_receiver.py). Prints, each beside a baseline of the same run:
  1. steady load: the time from a violating event's 201 to the receiver taking its finding (p50, p99,
     max), beside the append latency (POST to 201);
  2. a receiver down OUTAGE seconds while findings go on: the attempts made meanwhile and the time
     from its return until it has them all (the retry schedule's wait is most of it);
  3. a subscription created over a backlog of events: the deliveries a second it sustains, beside the
     rate the same receiver takes the same number of signed bodies from one sequential client;
  4. the same over WITHDRAWALS ConsentRescinded (default 1000), each 2xx also recording a
     WithdrawalDelivered in the attempt's transaction (decision 0084), beside step 3's rate;
and the CPU of this generator, the receiver, serve and the cluster, so the share the generator and
the receiver take from the two cores is known."""
import hashlib, hmac, http.client, json, os, signal, subprocess, sys, threading, time, uuid

sys.dont_write_bytecode = True     # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import append, cluster_cpu, cpu, fresh, pct, violation  # noqa: E402

PORT = int(os.environ["BENCH_PORT"]); DIR = os.environ["BENCH_DIR"]; BINARY = os.environ["BENCH_BINARY"]; TOOLS = os.environ["BENCH_TOOLS"]
INGEST = open(f"{DIR}/ingest.txt").read().strip()
SERVE = int(open(f"{DIR}/serve.pid").read())
SECONDS = int(os.environ.get("SECONDS_STEADY", "60")); OUTAGE = int(os.environ.get("OUTAGE", "60"))
BACKGROUND = [l for l in open(f"{DIR}/background.ndjson").read().splitlines() if l]
FIRST = [l for l in open(f"{DIR}/first.ndjson").read().splitlines() if l]
RECEIVED = f"{DIR}/received.ndjson"; SECRETS = f"{DIR}/secrets.txt"
WITHDRAWALS = int(os.environ.get("WITHDRAWALS", "1000"))


def free_port():
    import socket
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


RPORT = free_port()
receiver_cpu = [0.0]


class Receiver:
    def __init__(self):
        self.process = None

    def start(self):
        open(SECRETS, "a").close()
        log = open(f"{DIR}/receiver.log", "ab")
        self.process = subprocess.Popen([sys.executable, f"{TOOLS}/webhook_receiver.py", "--port", str(RPORT), "--secret-file", SECRETS,
                                         "--out", RECEIVED], stdout=log, stderr=log)
        for _ in range(300):
            try:
                http.client.HTTPConnection("127.0.0.1", RPORT, timeout=1).connect(); return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the receiver did not start")

    def kill(self):
        receiver_cpu[0] += cpu(self.process.pid)
        self.process.send_signal(signal.SIGKILL); self.process.wait()

    def cpu(self):
        return receiver_cpu[0] + cpu(self.process.pid)


def subscribe(*asked):
    out = subprocess.run([BINARY, "subscriptions", "create", "--log", "acme", "--url", f"http://127.0.0.1:{RPORT}/hook", *asked],
                         capture_output=True, text=True, check=True).stdout.split()
    with open(SECRETS, "a") as f: f.write(out[1] + "\n")
    return out[0], out[1]


def received(subscription):
    firsts = {}
    try:
        for line in open(RECEIVED):
            item = json.loads(line)
            if item.get("subscription") == subscription: firsts.setdefault(item["id"], item["receivedAt"])
    except OSError:
        pass
    return firsts


def post(conn, lines):
    return append(conn, INGEST, lines)


def rescission():
    """A withdrawal of consent that withdraws (production, its signature verified), for a subject of its own."""
    subject = "p_w" + uuid.uuid4().hex[:10]
    return json.dumps({"eventId": str(uuid.uuid4()), "stream": f"subject-{subject}", "type": "ConsentRescinded", "schemaVersion": 1,
                       "occurredAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "subject": subject, "actor": {"kind": "system"},
                       "app": {"bundleId": "com.example.kidsdraw", "appVersion": "3.0.0", "platform": "iOS", "osVersion": "26.1",
                               "environment": "production"},
                       "jurisdiction": {"code": "US-TX", "basis": "asserted"},
                       "payload": {"notificationUUID": str(uuid.uuid4()), "signedDate": 1795000000000, "bundleId": "com.example.kidsdraw",
                                   "environment": "Production", "signatureCheck": "valid", "enforcementAction": "accessRevoked"}})


def backlog_rate(subscription, n):
    """Waits (at most 30 minutes) until the receiver has `n` items of `subscription`: how many, and their rate first to last."""
    deadline = time.time() + 1800
    while time.time() < deadline and len(received(subscription)) < n: time.sleep(0.2)
    got = received(subscription); times = sorted(got.values())
    return got, times, len(got) / max(0.001, times[-1] - times[0])


def wait_for(subscription, ids, limit):
    deadline = time.time() + limit
    while time.time() < deadline:
        got = received(subscription)
        if all(k in got for k in ids): return got
        time.sleep(0.05)
    return received(subscription)


def main():
    receiver = Receiver(); receiver.start()
    me0, s0, p0, w0 = cpu(os.getpid()), cpu(SERVE), cluster_cpu(), time.time()
    shared = [sum(1 for l in FIRST if '"type":"AgeRangeShared"' in l)]
    # 1. Steady load.
    steady, _ = subscribe("--rule", "answer-before-question", "--label", "bench steady")
    stop = threading.Event(); background_sent = [0]

    def background():
        c = http.client.HTTPConnection("127.0.0.1", PORT); i = 0
        while not stop.is_set():
            lines = [fresh(l) for l in BACKGROUND[i:i + 20]]
            post(c, lines); background_sent[0] += 20; i = (i + 20) % max(1, len(BACKGROUND) - 20)
            shared[0] += sum(1 for l in lines if '"type": "AgeRangeShared"' in l or '"type":"AgeRangeShared"' in l)
            time.sleep(0.1)
    bg = threading.Thread(target=background, daemon=True); bg.start()
    conn = http.client.HTTPConnection("127.0.0.1", PORT); acked = {}; append_ms = []
    end = time.time() + SECONDS
    while time.time() < end:
        t = time.time(); r = post(conn, [violation()]); a = time.time()
        append_ms.append((a - t) * 1000); acked[f"{r['events'][0]['position']}.answer-before-question"] = a
        time.sleep(0.2)
    got = wait_for(steady, acked, 60)
    stop.set(); bg.join()
    lat = [(got[k] - a) * 1000 for k, a in acked.items() if k in got]
    missing = [k for k in acked if k not in got]
    wall = time.time() - w0
    print(f"1. steady load: {len(acked)} violations at 5/s beside {background_sent[0]} ordinary events "
          f"({background_sent[0] / wall:.0f}/s, in requests of 20), {wall:.0f} s; one subscription to rule answer-before-question")
    print(f"   baseline, append (POST to 201) of one event: p50 {pct(append_ms, 50):.0f} ms, p99 {pct(append_ms, 99):.0f} ms")
    print(f"   201 to the receiver taking the finding: p50 {pct(lat, 50):.0f} ms, p99 {pct(lat, 99):.0f} ms, max {max(lat):.0f} ms"
          + (f"; NOT DELIVERED: {len(missing)}" if missing else "; every one delivered"))
    # 2. Outage.
    receiver.kill(); away = {}
    end = time.time() + OUTAGE
    while time.time() < end:
        r = post(conn, [violation()]); away[f"{r['events'][0]['position']}.answer-before-question"] = time.time(); time.sleep(0.2)
    listed = [json.loads(l) for l in subprocess.run([BINARY, "subscriptions", "list", "--log", "acme", "--format", "json"],
                                                    capture_output=True, text=True, check=True).stdout.splitlines()]
    mine = next(s for s in listed if s["id"] == steady)
    back = time.time(); receiver.start()
    got = wait_for(steady, away, 1200)
    caught = max(got[k] for k in away if k in got) - back
    print(f"2. outage: the receiver down {OUTAGE} s while {len(away)} findings came; {mine['failures']} failed attempts meanwhile, "
          f"the next due at {mine.get('nextAttemptAt')}; all {len(away)} taken "
          f"{caught:.1f} s after it came back" + ("" if all(k in got for k in away) else " (NOT ALL)"))
    # 3. Throughput over a backlog.
    n = shared[0]
    started = time.time(); bulk, secret = subscribe("--event-type", "AgeRangeShared", "--label", "bench backlog")
    got, times, rate = backlog_rate(bulk, n)
    # Baseline: the same receiver, the same number of signed bodies of the same shape, one sequential client.
    body = json.dumps({"event": {"eventId": str(uuid.uuid4()), "type": "AgeRangeShared", "stream": "subject-p_1", "subject": "p_1",
                                 "occurredAt": "2026-11-20T16:02:19.000000Z", "recordedAt": "2026-11-20T16:02:19.000000Z",
                                 "record": json.loads(FIRST[0])}, "id": "1", "kind": "event", "log": "acme", "position": 1,
                       "subscription": bulk}, sort_keys=True, separators=(",", ":")).encode()
    c = http.client.HTTPConnection("127.0.0.1", RPORT); t = time.time(); count = min(n, 3000)
    for i in range(count):
        ts = str(int(time.time()))
        sig = hmac.new(secret.encode(), ts.encode() + b"." + body, hashlib.sha256).hexdigest()
        c.request("POST", "/hook", body=body, headers={"Content-Type": "application/json", "ConsentLedger-Signature": f"t={ts},v1={sig}"})
        c.getresponse().read()
    baseline = count / (time.time() - t)
    print(f"3. throughput: a subscription created over {n} AgeRangeShared events got {len(got)} "
          f"(first {times[0] - started:.1f} s after its creation), {rate:.0f} deliveries/s")
    print(f"   baseline, the same receiver taking {count} signed bodies of that shape from one sequential Python client: {baseline:.0f}/s")
    # 4. Withdrawals over a backlog: each 2xx also stores a WithdrawalDelivered, in the attempt's transaction.
    for i in range(0, WITHDRAWALS, 100):
        post(conn, [rescission() for _ in range(min(100, WITHDRAWALS - i))])
    told, _ = subscribe("--event-type", "ConsentRescinded", "--label", "bench withdrawals")
    got, _, told_rate = backlog_rate(told, WITHDRAWALS)
    print(f"4. withdrawals: a subscription created over {WITHDRAWALS} ConsentRescinded got {len(got)}, {told_rate:.0f} deliveries/s, "
          f"each recording its WithdrawalDelivered in the attempt's transaction; beside step 3's {rate:.0f}/s (no event recorded)")
    me, s, p, r = cpu(os.getpid()) - me0, cpu(SERVE) - s0, cluster_cpu() - p0, receiver.cpu(); wall = time.time() - w0
    print(f"CPU over {wall:.0f} s: this load generator {me / wall * 100:.0f}% of one core, the receiver {r / wall * 100:.0f}%, "
          f"serve {s / wall * 100:.0f}%, postgres {p / wall * 100:.0f}% of one core (2 cores in all)")
    receiver.kill()


main()
