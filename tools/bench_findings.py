#!/usr/bin/env python3
"""Append-to-delivery of findings over GET /v1/logs/{log}/findings/stream (issue 42), driven by
tools/bench-findings against a live serve. Prints, beside the append latency of the same run (the
baseline): the time from a violating event's 201 to its finding on an open stream (p50/p99/max)
under a steady background load, the rate a stream hands over a backlog, and the catch-up time after
a reader is away for OUTAGE seconds. Also the CPU of this load generator, of serve and of the
cluster, so the share the generator takes from the two cores is known."""
import http.client, json, os, random, socket, statistics, sys, threading, time, uuid

sys.dont_write_bytecode = True     # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_common import append, cluster_cpu, cpu, fresh, pct, violation  # noqa: E402

PORT = int(os.environ["BENCH_PORT"]); DIR = os.environ["BENCH_DIR"]
INGEST = open(f"{DIR}/ingest.txt").read().strip(); AUDITOR = open(f"{DIR}/auditor.txt").read().strip()
SERVE = int(open(f"{DIR}/serve.pid").read())
SECONDS = int(os.environ.get("SECONDS_STEADY", "60")); OUTAGE = int(os.environ.get("OUTAGE", "30")); BACKLOG = int(os.environ.get("BACKLOG", "3000"))
BACKGROUND = [l for l in open(f"{DIR}/background.ndjson").read().splitlines() if l]

def wait_ready():
    """Until the stream opens (the projections are built once serve has folded the first events)."""
    for _ in range(600):
        s = socket.create_connection(("127.0.0.1", PORT))
        s.sendall(f"GET /v1/logs/acme/findings/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {AUDITOR}\r\n\r\n".encode())
        head = s.recv(100); s.close()
        if head.startswith(b"HTTP/1.1 200"): return
        time.sleep(0.5)
    raise SystemExit(f"the stream did not open: {head[:200]!r}")

def post(conn, lines):
    return append(conn, INGEST, lines)

class Stream(threading.Thread):
    """Reads the stream, noting when each id arrives."""
    def __init__(self, after="0"):
        super().__init__(daemon=True); self.seen = {}; self.after = after; self.stop = False; self.count = 0; self.last = after
    def run(self):
        s = socket.create_connection(("127.0.0.1", PORT)); self.sock = s
        s.sendall((f"GET /v1/logs/acme/findings/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {AUDITOR}\r\n"
                   f"Last-Event-ID: {self.after}\r\n\r\n").encode())
        buf = b""
        while not self.stop:
            try:
                data = s.recv(65536)
            except OSError:
                return
            if not data: return
            buf += data; now = time.perf_counter()
            while b"\nid: " in buf or buf.startswith(b"id: "):
                i = buf.find(b"id: "); j = buf.find(b"\n", i)
                if j < 0: break
                ident = buf[i + 4:j].decode(); self.seen.setdefault(ident, now); self.count += 1; self.last = ident
                buf = buf[j:]
            buf = buf[-200:] if len(buf) > 200 else buf
    def close(self):
        self.stop = True
        try: self.sock.shutdown(socket.SHUT_RDWR)
        except OSError: pass

def main():
    wait_ready()
    me0, s0, p0, w0 = cpu(os.getpid()), cpu(SERVE), cluster_cpu(), time.perf_counter()
    stream = Stream(); stream.start(); time.sleep(1)
    stop = threading.Event(); background_sent = [0]
    def background():
        c = http.client.HTTPConnection("127.0.0.1", PORT); i = 0
        while not stop.is_set():
            post(c, [fresh(l) for l in BACKGROUND[i:i + 20]]); background_sent[0] += 20; i = (i + 20) % max(1, len(BACKGROUND) - 20)
            time.sleep(0.1)   # at most 200 events/s of ordinary traffic
    bg = threading.Thread(target=background, daemon=True); bg.start()
    conn = http.client.HTTPConnection("127.0.0.1", PORT); acked = {}; append_ms = []
    end = time.perf_counter() + SECONDS
    while time.perf_counter() < end:
        t = time.perf_counter(); r = post(conn, [violation()]); a = time.perf_counter()
        append_ms.append((a - t) * 1000); acked[f"{r['events'][0]['position']}.answer-before-question"] = a
        time.sleep(0.2)   # 5 violations a second
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and not all(k in stream.seen for k in acked): time.sleep(0.05)
    stop.set(); bg.join()
    lat = [(stream.seen[k] - a) * 1000 for k, a in acked.items() if k in stream.seen]
    missing = [k for k in acked if k not in stream.seen]
    wall = time.perf_counter() - w0
    print(f"steady load: {len(acked)} violations at 5/s beside {background_sent[0]} ordinary events "
          f"({background_sent[0] / wall:.0f}/s, in requests of 20), {wall:.0f} s")
    print(f"  baseline, append (POST to 201) of one event: p50 {pct(append_ms, 50):.0f} ms, p99 {pct(append_ms, 99):.0f} ms")
    print(f"  append-acknowledged to delivered on the open stream: p50 {pct(lat, 50):.0f} ms, p99 {pct(lat, 99):.0f} ms, max {max(lat):.0f} ms"
          + (f"; NOT DELIVERED: {len(missing)}" if missing else "; every one delivered once"))
    # Outage: the reader goes away, findings go on; it comes back with its last id.
    last = stream.last; stream.close()
    conn2 = http.client.HTTPConnection("127.0.0.1", PORT); away = {}
    end = time.perf_counter() + OUTAGE
    while time.perf_counter() < end:
        r = post(conn2, [violation()]); away[f"{r['events'][0]['position']}.answer-before-question"] = time.perf_counter(); time.sleep(0.2)
    back = time.perf_counter(); again = Stream(after=last); again.start()
    while not all(k in again.seen for k in away) and time.perf_counter() < back + 120: time.sleep(0.01)
    print(f"outage: the reader away {OUTAGE} s while {len(away)} findings came; back with Last-Event-ID, caught up in "
          f"{(max(again.seen[k] for k in away) - back) * 1000:.0f} ms" + ("" if all(k in again.seen for k in away) else " (NOT ALL)"))
    again.close()
    # Backlog: many findings at once, then a new reader from the start.
    conn3 = http.client.HTTPConnection("127.0.0.1", PORT); t = time.perf_counter()
    for _ in range(BACKLOG // 500): post(conn3, [violation() for _ in range(500)])
    appended = time.perf_counter() - t
    deadline = time.perf_counter() + 300
    probe = Stream(after="0"); probe.start()
    total = None
    while time.perf_counter() < deadline:
        # The projection folds the backlog; wait until the reader has it all (the findings count is the total).
        time.sleep(0.2)
        if probe.count >= len(acked) + len(away) + BACKLOG and time.perf_counter() - probe.seen[probe.last] > 3: break
    t1 = time.perf_counter(); probe.close()
    firsts = sorted(probe.seen.values())
    print(f"backlog: {BACKLOG} violations appended in batches of 500 in {appended:.1f} s ({BACKLOG / appended:.0f} events/s, the baseline); "
          f"a new reader from 0 got {probe.count} findings, the last {firsts[-1] - firsts[0]:.1f} s after the first "
          f"({probe.count / max(0.001, firsts[-1] - firsts[0]):.0f} findings/s, bounded by the fold as much as by the stream)")
    me, s, p = cpu(os.getpid()) - me0, cpu(SERVE) - s0, cluster_cpu() - p0; wall = time.perf_counter() - w0
    print(f"CPU over {wall:.0f} s: this load generator {me / wall * 100:.0f}% of one core ({me / wall / 2 * 100:.0f}% of the machine), "
          f"serve {s / wall * 100:.0f}%, postgres {p / wall * 100:.0f}% of one core")

main()
