#!/usr/bin/env python3
"""The failover trials of tools/ha-failover (issue 22, item 2; docs/deployment.md).

Against a cluster tools/ha-up started and a `consent-ledger serve` that reaches the primary
through HAProxy: --clients threads append one event per request over HTTP, each retrying a
request that failed (a refused connection, a 5xx, a timeout) with the very same body until it is
answered, which idempotency makes safe (the batch's hash is its key). In each trial the primary's
machine dies: its Patroni and its postmaster are killed with SIGKILL. Patroni promotes the
synchronous standby once the leader lock expires; appends resume through HAProxy. Then the dead
node is started again and must rejoin as a standby (pg_rewind), never as a second primary.

Each trial prints: events acknowledged, how many of them the log holds (0 lost is the claim),
whether positions are gapless, the seconds without a successful append, the errors clients saw
(each fixed by a retry, or not), which node took over, and whether the old primary rejoined as a
standby; after the last trial, `consent-ledger verify` runs on the new primary, and the worst
case is printed. Exit 0 only when every trial lost nothing, kept positions gapless, had one
primary at a time and rejoined, and verify passed.
"""
import argparse, collections, http.client, json, os, resource, signal, subprocess, sys, threading, time, urllib.error, urllib.request, uuid

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--base-port", type=int, required=True)
    parser.add_argument("--serve-port", type=int, required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--log", default="ha")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--before", type=float, default=5.0, help="seconds of load before the kill")
    parser.add_argument("--after", type=float, default=5.0, help="seconds of load after appends resume")
    args = parser.parse_args()
    cluster = Cluster(args.dir, args.base_port)
    started = time.monotonic()
    results = []
    for trial in range(1, args.trials + 1):
        result = run_trial(trial, args, cluster)
        results.append(result)
        print(f"ha-failover: trial {trial}: {result.line()}", flush=True)
    verified = subprocess.run([args.binary, "verify", "--log", args.log, "--database-url", args.database_url],
                              capture_output=True, text=True)
    verify_line = " / ".join((verified.stdout + verified.stderr).strip().splitlines()[-3:]) or "(no output)"
    print(f"ha-failover: verify at the end, on n{cluster.primary()}: {'passed' if verified.returncode == 0 else 'FAILED'}: {verify_line}")
    worst = max(results, key=lambda r: r.outage)
    print(f"ha-failover: {len(results)} trials, {args.clients} clients: {sum(r.acknowledged for r in results):,} events acknowledged, "
          f"{sum(r.lost for r in results)} lost; worst outage {worst.outage:.1f} s (trial {worst.trial}); "
          f"median outage {sorted(r.outage for r in results)[len(results) // 2]:.1f} s; "
          f"client errors {sum(r.errors_total() for r in results):,}, all fixed by a retry: "
          f"{'yes' if all(r.unfixed == 0 for r in results) else 'no'}")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"ha-failover: the load generator (this process, {args.clients} client threads) used {usage.ru_utime + usage.ru_stime:.1f} s "
          f"of CPU over {time.monotonic() - started:.0f} s, on the same {os.cpu_count()} cores as serve and the three PostgreSQL nodes")
    ok = verified.returncode == 0 and all(r.ok() for r in results)
    print("ha-failover: OK" if ok else "ha-failover: FAILED")
    return 0 if ok else 1

class Cluster:
    """The nodes tools/ha-up laid out in DIR: their Patroni REST ports, pid files and configs."""
    def __init__(self, folder, base):
        self.folder, self.base = folder, base

    def rest(self, node):
        return self.base + 20 + node

    def ask(self, node, path):
        """(status, JSON body) of GET path on node's Patroni REST API; None when it does not answer
        (urllib raises on 503, which Patroni answers for "not the primary": that is an answer too)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.rest(node)}{path}", timeout=1) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, None
        except Exception:
            return None

    def members(self):
        """Each answering node's own view of its role: {name: role}, so that two nodes that each
        think they lead would show."""
        views = {}
        for node in (1, 2, 3):
            answer = self.ask(node, "/patroni")
            if answer and answer[1]:
                views[f"n{node}"] = answer[1].get("role")
        return views

    def primary(self):
        """The node whose Patroni says it is the primary (None when none does)."""
        return next((node for node in (1, 2, 3) if (self.ask(node, "/primary") or (0,))[0] == 200), None)

    def cluster(self):
        """The cluster as the first answering node sees it."""
        for node in (1, 2, 3):
            answer = self.ask(node, "/cluster")
            if answer and answer[1]:
                return answer[1]
        return {"members": []}

    def kill(self, node):
        """The machine dies: its Patroni first (so nothing restarts PostgreSQL), then the postmaster."""
        folder = f"{self.folder}/n{node}"
        with open(f"{folder}/patroni.pid") as f:
            os.kill(int(f.read().strip()), signal.SIGKILL)
        with open(f"{folder}/data/postmaster.pid") as f:
            os.kill(int(f.readline().strip()), signal.SIGKILL)

    def start(self, node):
        """Starts node's Patroni again, as tools/ha-up does: it writes its own pid, then becomes Patroni."""
        folder = f"{self.folder}/n{node}"
        command = ["sh", "-c", 'echo $$ > "$0"; exec "$@"', f"{folder}/patroni.pid", "patroni", f"{folder}/patroni.yml"]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--"] + command
        with open(f"{folder}/patroni.log", "a") as log:
            subprocess.Popen(command, stdout=log, stderr=log, start_new_session=True)

class Trial:
    def __init__(self, trial):
        self.trial = trial
        self.acknowledged = 0
        self.lost = 0
        self.gapless = False
        self.outage = 0.0
        self.errors = collections.Counter()
        self.unfixed = 0
        self.old = self.new = None
        self.leaders_seen = 1
        self.rejoined = False
        self.head = 0
        self.verified = False

    def errors_total(self):
        return sum(self.errors.values())

    def ok(self):
        return self.lost == 0 and self.gapless and self.verified and self.rejoined and self.leaders_seen == 1 and self.acknowledged > 0 \
            and self.new is not None and self.new != self.old and self.unfixed == 0

    def line(self):
        errors = ", ".join(f"{n} {kind}" for kind, n in self.errors.most_common()) or "none"
        return (f"n{self.old} killed, n{self.new} took over; {self.acknowledged:,} acknowledged, "
                f"{self.acknowledged - self.lost:,} of them in the log ({self.lost} lost); positions 1..{self.head:,} "
                f"{'gapless' if self.gapless else 'WITH GAPS'}; verify on n{self.new} {'passed' if self.verified else 'FAILED'}; "
                f"{self.outage:.1f} s without a successful append; "
                f"client errors: {errors} ({self.unfixed} not fixed by a retry); "
                f"{'one primary at a time' if self.leaders_seen == 1 else f'{self.leaders_seen} PRIMARIES AT ONCE'}; "
                f"old primary {'rejoined as a standby' if self.rejoined else 'DID NOT REJOIN'}")

def run_trial(number, args, cluster):
    trial = Trial(number)
    trial.old = cluster.primary()
    if trial.old is None:
        raise SystemExit("ha-failover: no primary before the trial")
    stop = threading.Event()
    lock = threading.Lock()
    acked = []            # (event id, monotonic time of the answer)
    attempts = collections.Counter()

    def client(index):
        connection = None
        while not stop.is_set():
            event_id = str(uuid.uuid4())
            body = json.dumps({"eventId": event_id, "stream": f"subject-p_ha{index}", "type": "AgeRangeShared", "schemaVersion": 1,
                               "occurredAt": "2026-11-27T12:00:00Z", "actor": {"kind": "app"},
                               "app": {"bundleId": "com.example.kids", "platform": "iOS"},
                               "payload": {"lowerBound": 13, "upperBound": 15}})
            failed = False
            while True:  # the same request until it is answered
                try:
                    if connection is None:
                        connection = http.client.HTTPConnection("127.0.0.1", args.serve_port, timeout=30)
                    connection.request("POST", f"/v1/logs/{args.log}/events", body=body,
                                       headers={"Authorization": f"Bearer {args.key}", "Content-Type": "application/x-ndjson"})
                    answer = connection.getresponse()
                    answer.read()
                    if answer.status in (200, 201):
                        with lock:
                            acked.append((event_id, time.monotonic()))
                            if failed:
                                attempts["fixed"] += 1
                        break
                    kind = f"HTTP {answer.status}"
                    if answer.status < 500 and answer.status != 429:
                        with lock:
                            trial.errors[kind] += 1
                            trial.unfixed += 1
                        break  # a refusal no retry can change: counted, not retried
                except (OSError, http.client.HTTPException) as error:
                    kind = type(error).__name__
                    if connection is not None:
                        connection.close()
                    connection = None
                with lock:
                    trial.errors[kind] += 1
                failed = True
                if stop.is_set():
                    with lock:
                        trial.unfixed += 1  # left unanswered at the end: not acknowledged, so not counted
                    return
                time.sleep(0.1)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    time.sleep(args.before)
    killed_at = time.monotonic()
    with lock:
        before_kill = len(acked)
    cluster.kill(trial.old)
    # Wait for appends to resume, watching that no two nodes think they lead.
    deadline = killed_at + 120
    while time.monotonic() < deadline:
        views = cluster.members()
        trial.leaders_seen = max(trial.leaders_seen, sum(1 for role in views.values() if role in ("master", "primary")))
        with lock:
            resumed = [t for _, t in acked[before_kill:] if t > killed_at]
        if resumed and cluster.primary() not in (None, trial.old):
            break
        time.sleep(0.2)
    time.sleep(args.after)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    trial.new = cluster.primary()
    with lock:
        times = sorted(t for _, t in acked)
        ids = [event_id for event_id, _ in acked]
    trial.acknowledged = len(ids)
    # The longest stretch without an acknowledged append around the kill.
    around = [t for t in times if t >= killed_at - 5]
    gaps = [b - a for a, b in zip(around, around[1:])]
    first_after = next((t for t in times if t > killed_at), None)
    last_before = max((t for t in times if t <= killed_at), default=killed_at)
    trial.outage = max(gaps + [((first_after or time.monotonic()) - last_before)])
    # Every acknowledged event is in the log, and the log's positions are 1..head without a gap.
    found, head, count = query(args.database_url, args.log, ids)
    trial.lost = len(ids) - found
    trial.head = head
    trial.gapless = head == count
    # verify on the new primary: every record, hash and chain link of the log.
    verified = subprocess.run([args.binary, "verify", "--log", args.log, "--database-url", args.database_url],
                              capture_output=True, text=True)
    trial.verified = verified.returncode == 0
    # The dead node comes back and must rejoin as a standby of the new primary.
    cluster.start(trial.old)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        views = cluster.members()
        trial.leaders_seen = max(trial.leaders_seen, sum(1 for role in views.values() if role in ("master", "primary")))
        members = {m["name"]: m for m in cluster.cluster().get("members", [])}
        old = members.get(f"n{trial.old}", {})
        roles = sorted(m.get("role") for m in members.values() if m.get("state") in ("running", "streaming"))
        if old.get("role") in ("replica", "sync_standby") and old.get("state") in ("running", "streaming") \
                and roles == ["leader", "replica", "sync_standby"]:
            trial.rejoined = True
            break
        time.sleep(0.5)
    return trial

def query(url, log, ids):
    """(how many of ids the log holds, its head, its number of events), asked of the primary through HAProxy."""
    script = ("CREATE TEMP TABLE acked (event_id uuid); COPY acked FROM STDIN;\n" + "\n".join(ids) + "\n\\.\n"
              f"SELECT (SELECT count(*) FROM ledger.events e JOIN acked a USING (event_id) WHERE e.log_id = '{log}'), "
              f"coalesce((SELECT max(position) FROM ledger.events WHERE log_id = '{log}'), 0), "
              f"(SELECT count(*) FROM ledger.events WHERE log_id = '{log}');\n")
    for _ in range(30):
        done = subprocess.run(["psql", "-X", "-q", "-At", "-F", " ", url], input=script, capture_output=True, text=True)
        if done.returncode == 0:
            found, head, count = (int(x) for x in done.stdout.split())
            return found, head, count
        time.sleep(1)
    raise SystemExit(f"ha-failover: cannot count the log on the primary: {done.stderr.strip()}")

if __name__ == "__main__":
    sys.exit(main())
