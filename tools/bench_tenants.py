#!/usr/bin/env python3
"""tools/bench-tenants runs this (issue 36, finding 13; decision 0055): another tenant's state read while log "big" is loaded with
consent-register?asOf= reports. Stdlib only.

The probe (other tenant's reads) runs in this process; the load runs in a separate process
(multiprocessing) with 10 threads, so the probe's timings are not inflated by the load's GIL,
and the load generator's CPU can be measured on its own (os.times in that process).

Phases, alternated per round:
  solo  - the asOf report alone, 5 sequential requests (its own latency)
  a     - baseline: 20 sequential state reads of log "other", no load
  b     - the same while 10 threads loop the report with ONE key of log "big" (retry at once on 429)
  b_ra  - like b, but the threads honour Retry-After on 429/503 (a well-behaved client)
  c     - the same while 10 threads loop the report with 10 DIFFERENT keys of log "big"
"""
import http.client, json, multiprocessing as mp, os, statistics, sys, threading, time

HOST, PORT = "127.0.0.1", int(os.environ["BENCH_PORT"])
ASOF = int(os.environ.get("ASOF", "60000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
PROBES = 20
WARMUP = 3.0
HERE = os.environ["BENCH_DIR"]   # the folder tools/bench-tenants set up
BIG_KEY = open(os.path.join(HERE, "bigkey1.txt")).read().strip()
BIG_KEYS = [l.strip() for l in open(os.path.join(HERE, "bigkeys.txt")) if l.strip()]
OTHER_KEY = open(os.path.join(HERE, "otherkey.txt")).read().strip()
REPORT = f"/v1/logs/big/reports/consent-register?asOf={ASOF}"
CLK = os.sysconf("SC_CLK_TCK")


def get(conn, path, key):
    conn.request("GET", path, headers={"Authorization": f"Bearer {key}"})
    r = conn.getresponse()
    body = r.read()
    return r.status, body, r.getheader("Retry-After")


def proc_cpu(pid):
    """utime+stime in seconds of a process (all its threads)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK
    except FileNotFoundError:
        return 0.0


PGMASTER = int(open(os.path.join(HERE, "data/pgdata/postmaster.pid")).readline())


def postgres_cpus():
    """CPU of OUR embedded cluster only, per process: its postmaster and its live children."""
    found = {PGMASTER: proc_cpu(PGMASTER)}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (FileNotFoundError, ProcessLookupError):
                continue
            if ppid == PGMASTER:
                found[int(p)] = proc_cpu(p)
    return found


def cpu_since(before):
    """The cluster's CPU since `before` (postgres_cpus()), over the processes alive at both ends:
    a backend that exited in between is not counted (its CPU would otherwise be subtracted)."""
    now = postgres_cpus()
    return sum(now[p] - before[p] for p in now if p in before)


def machine_cpu():
    """(busy, total) jiffies of the whole machine, all cores."""
    f = list(map(int, open("/proc/stat").readline().split()[1:]))
    return sum(f) - f[3] - f[4], sum(f)


def load_worker(keys, honour_retry_after, stop, out):
    """Runs in its own process: len(keys) threads, thread i uses keys[i]."""
    counts, lat200, lock = {}, [], threading.Lock()

    def loop(key):
        conn = http.client.HTTPConnection(HOST, PORT, timeout=120)
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                status, _, ra = get(conn, REPORT, key)
            except Exception as e:  # connection reset etc.
                status, ra = f"error:{type(e).__name__}", None
                conn.close()
                conn = http.client.HTTPConnection(HOST, PORT, timeout=120)
            dt = time.perf_counter() - t0
            with lock:
                counts[str(status)] = counts.get(str(status), 0) + 1
                if status == 200:
                    lat200.append(dt)
            if honour_retry_after and status in (429, 503):
                stop.wait(float(ra or 1))
        conn.close()

    t0, c0 = time.perf_counter(), os.times()
    threads = [threading.Thread(target=loop, args=(k,)) for k in keys]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c1, wall = os.times(), time.perf_counter() - t0
    cpu = (c1.user - c0.user) + (c1.system - c0.system)
    out.put({"counts": counts, "lat200": lat200, "cpu": cpu, "wall": wall})


def probe(n):
    conn = http.client.HTTPConnection(HOST, PORT, timeout=120)
    lat, statuses = [], {}
    for _ in range(n):
        t0 = time.perf_counter()
        status, body, _ = get(conn, f"/v1/logs/other/subjects/{SUBJECT}/state", OTHER_KEY)
        lat.append(time.perf_counter() - t0)
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    conn.close()
    return lat, statuses


def pick_subject():
    conn = http.client.HTTPConnection(HOST, PORT, timeout=30)
    status, body, _ = get(conn, "/v1/logs/other/subjects?limit=50", OTHER_KEY)
    assert status == 200, (status, body)
    subs = json.loads(body)["subjects"]
    return next(s["subject"] for s in subs if s["consentItems"] > 0)


def run_phase(name, serve_pid):
    rec = {"phase": name}
    s0, p0, m0, w0 = proc_cpu(serve_pid), postgres_cpus(), machine_cpu(), time.perf_counter()
    if name == "solo":
        conn = http.client.HTTPConnection(HOST, PORT, timeout=120)
        lat = []
        for _ in range(5):
            t0 = time.perf_counter()
            status, body, _ = get(conn, REPORT, BIG_KEY)
            assert status == 200, status
            lat.append(time.perf_counter() - t0)
        conn.close()
        rec["report_lat"] = lat
        rec["report_bytes"] = len(body)
    elif name == "a":
        rec["lat"], rec["status"] = probe(PROBES)
    else:
        keys = {"b": [BIG_KEY] * 10, "b_ra": [BIG_KEY] * 10, "c": BIG_KEYS[:10],
                "b4": [BIG_KEY] * 4}[name]  # b4: control, 4 threads = the key's bound, few 429s
        stop, out = mp.Event(), mp.Queue()
        p = mp.Process(target=load_worker, args=(keys, name == "b_ra", stop, out))
        p.start()
        time.sleep(WARMUP)
        rec["lat"], rec["status"] = probe(PROBES)
        stop.set()
        load = out.get()
        p.join()
        rec["load"] = load
    wall = time.perf_counter() - w0
    rec["wall"] = wall
    rec["serve_cpu"] = proc_cpu(serve_pid) - s0
    rec["postgres_cpu"] = cpu_since(p0)
    m1 = machine_cpu()
    rec["machine_busy"] = (m1[0] - m0[0]) / CLK  # core-seconds busy, all processes
    rec["machine_total"] = (m1[1] - m0[1]) / CLK
    return rec


def ms(x):
    return f"{x * 1000:.0f}"


def main():
    global SUBJECT
    serve_pid = int(open(os.path.join(HERE, "serve.pid")).read())
    SUBJECT = pick_subject()
    print(f"subject of log other: {SUBJECT}; report: {REPORT}", flush=True)
    records = []
    order = os.environ.get("PHASES", "solo a b b_ra c").split()
    for r in range(ROUNDS):
        for name in order:
            rec = run_phase(name, serve_pid)
            rec["round"] = r + 1
            records.append(rec)
            line = f"round {r+1} {name:5s} wall {rec['wall']:.1f}s"
            if "lat" in rec:
                line += f" probe median {ms(statistics.median(rec['lat']))} ms max {ms(max(rec['lat']))} ms {rec['status']}"
            if "report_lat" in rec:
                line += f" report alone median {ms(statistics.median(rec['report_lat']))} ms"
            if "load" in rec:
                L = rec["load"]
                line += f" load {L['counts']} loadCPU {L['cpu']/L['wall']*100:.0f}% of one core"
            line += f" serveCPU {rec['serve_cpu']/rec['wall']*100:.0f}% pgCPU {rec['postgres_cpu']/rec['wall']*100:.0f}%"
            mine = rec['serve_cpu'] + rec['postgres_cpu'] + (rec['load']['cpu'] if 'load' in rec else 0)
            line += f" machine busy {rec['machine_busy']/rec['machine_total']*100:.0f}% of 2 cores, not ours ~{max(0, rec['machine_busy']-mine)/rec['wall']*100:.0f}% of one core"
            print(line, flush=True)
            time.sleep(1.0)
    json.dump({"subject": SUBJECT, "phases": order, "report": REPORT, "records": records},
              open(os.path.join(HERE, os.environ.get("OUT", "results.json")), "w"), indent=1)

    # summary per phase, all rounds pooled
    print("\nSUMMARY (all rounds pooled)")
    for name in order:
        recs = [r for r in records if r["phase"] == name]
        wall = sum(r["wall"] for r in recs)
        cpu_s = sum(r["serve_cpu"] for r in recs) / wall * 100
        cpu_p = sum(r["postgres_cpu"] for r in recs) / wall * 100
        if name == "solo":
            lat = [x for r in recs for x in r["report_lat"]]
            print(f"solo: report alone n={len(lat)} median {ms(statistics.median(lat))} ms min {ms(min(lat))} max {ms(max(lat))} ms; {recs[0]['report_bytes']} bytes")
            continue
        lat = [x for r in recs for x in r["lat"]]
        st = {}
        for r in recs:
            for k, v in r["status"].items():
                st[k] = st.get(k, 0) + v
        line = (f"{name}: other-tenant state n={len(lat)} median {ms(statistics.median(lat))} ms "
                f"p90 {ms(sorted(lat)[int(0.9*len(lat))-1])} ms max {ms(max(lat))} ms statuses {st}; "
                f"per-round medians {[ms(statistics.median(r['lat'])) for r in recs]}")
        if name != "a":
            cnt = {}
            l200 = []
            lcpu = lwall = 0.0
            for r in recs:
                for k, v in r["load"]["counts"].items():
                    cnt[k] = cnt.get(k, 0) + v
                l200 += r["load"]["lat200"]
                lcpu += r["load"]["cpu"]
                lwall += r["load"]["wall"]
            line += (f"\n   load answers {cnt}; load 200 latency median "
                     f"{ms(statistics.median(l200)) if l200 else '-'} ms max {ms(max(l200)) if l200 else '-'} ms; "
                     f"load-generator CPU {lcpu:.1f}s over {lwall:.1f}s = {lcpu/lwall*100:.0f}% of one core "
                     f"({lcpu/lwall/2*100:.0f}% of the 2-core machine)")
        mb = sum(r["machine_busy"] for r in recs) / sum(r["machine_total"] for r in recs) * 100
        line += f"\n   serve CPU {cpu_s:.0f}% of one core, our postgres CPU {cpu_p:.0f}% of one core, machine busy {mb:.0f}% of 2 cores"
        print(line)


if __name__ == "__main__":
    main()
