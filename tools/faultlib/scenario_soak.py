"""soak: a steady mixed load on `serve` for a number of minutes (`--minutes M`; each trial is one
minute): single-event appends from 4 clients, reads of the log, consent-register and regulator
reports over HTTP, a signed checkpoint every minute and a rebuild of every projection every fifth
minute through the CLI. The private (anonymous) resident memory of the server and of every process
of the PostgreSQL cluster (shared buffers are not counted: they fill to their size) is sampled
each minute, and
PostgreSQL's temporary buffers (each backend's LocalBufferContext, from
pg_log_backend_memory_contexts) are taken out of its figure: they grow to temp_buffers per
connection and stay, a configured bound (decision 0037), reported beside. The growth per hour is
the slope of a least-squares line through the samples after the first quarter of the run (the
warm-up: caches filling, the projections catching up). It fails above the bounds
below, or when an acknowledged event is not stored once. Not part of the default run or --quick:
name it."""
import os
import re
import threading
import time

from .checks import Violation
from .ingest import Writers, check_stored, settle
from .keys import create_key
from .server import Client, Server

NAME = "soak"
INVARIANT = ("a steady mixed load (appends, reads, reports, checkpoints, rebuilds) on serve: memory growth per hour "
             "after warm-up within bounds (serve 64 MiB/h, PostgreSQL besides its temporary buffers 128 MiB/h), every "
             "acknowledged event stored once")
DEFAULT_TRIALS = 10          # minutes; --minutes sets it
QUICK_TRIALS = 2
QUICK_SECONDS = 150
LOG = "soak"
CLIENTS = 4
MINUTE = 60.0
SERVER_BOUND_MIB_PER_HOUR = 64
POSTGRES_BOUND_MIB_PER_HOUR = 128


def kib(path, field):
    """A `field: N kB` line of a /proc file, in KiB (0 when the process is gone)."""
    try:
        with open(path) as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def postgres_anon_kib(postmaster):
    """The private (anonymous) resident memory of the postmaster and every process it started, how
    many processes that is, and the largest one's, in KiB, and the largest one's process id."""
    total = kib(f"/proc/{postmaster}/status", "RssAnon")
    count, largest, largest_pid = 1, total, postmaster
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent == postmaster:
            own = kib(f"/proc/{entry}/status", "RssAnon")
            total += own
            count += 1
            if own > largest:
                largest, largest_pid = own, int(entry)
    return total, count, largest, largest_pid


def local_buffers_kib(ctx, state):
    """What PostgreSQL's temporary buffers take, summed over every backend, in KiB: each backend
    asked to log its memory contexts (`pg_log_backend_memory_contexts`), the server log read for
    their `LocalBufferContext` lines. Temporary buffers grow to `temp_buffers` per connection and
    stay (decision 0037): a bounded, configured amount, reported apart from the rest."""
    log_path = os.path.join(ctx.cluster.data_dir, "server.log")
    try:
        start = os.path.getsize(log_path)
    except OSError:
        return 0
    ctx.cluster.query("SELECT count(pg_log_backend_memory_contexts(pid)) FROM pg_stat_activity "
                      "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")
    time.sleep(1.0)
    with open(log_path, errors="replace") as handle:
        handle.seek(start)
        text = handle.read()
    total = 0
    for match in re.finditer(r"LocalBufferContext: (\d+) total in", text):
        total += int(match.group(1))
    return total // 1024


def slope_mib_per_hour(samples):
    """Least-squares slope of (seconds, KiB) samples, in MiB per hour; 0 for fewer than 2."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mean_t = sum(t for t, _ in samples) / n
    mean_v = sum(v for _, v in samples) / n
    spread = sum((t - mean_t) ** 2 for t, _ in samples)
    if spread == 0:
        return 0.0
    return sum((t - mean_t) * (v - mean_v) for t, v in samples) / spread * 3600 / 1024


class Readers:
    """One thread reading the log and the reports over HTTP until stopped."""

    def __init__(self, port, token):
        self.port, self.token = port, token
        self.stop = threading.Event()
        self.requests, self.problems = 0, []
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        client = Client(self.port, self.token)
        paths = [f"/v1/logs/{LOG}/events?after=0&limit=200",
                 f"/v1/logs/{LOG}/reports/consent-register?format=json",
                 f"/v1/logs/{LOG}/reports/regulator?jurisdiction=US&from=2026-01-01&to=2028-01-01&format=json"]
        index = 0
        while not self.stop.is_set():
            path = paths[index % len(paths)]
            reply = client.request("GET", path)
            self.requests += 1
            # 404: nothing appended yet; 503: the database is busy. Anything else is a finding.
            if reply.status not in (200, 404, 503) and len(self.problems) < 5:
                self.problems.append(f"GET {path}: {reply!r}")
            index += 1
            self.stop.wait(0.5)
        client.close()


class State:
    def __init__(self, server, ingest, auditor):
        self.server, self.ingest, self.auditor = server, ingest, auditor
        self.started = time.monotonic()
        self.samples = []            # (seconds, serve KiB, PostgreSQL KiB), private resident memory
        self.local_buffers = []      # PostgreSQL's temporary buffers (KiB) at each sample
        self.processes = []          # (PostgreSQL processes, the largest one's KiB, its role), at each sample
        self.sents = []
        self.writers = None
        self.readers = None


def setup(ctx, trials):
    minutes = getattr(ctx.options, "minutes", None)
    if minutes:
        ctx.trials = minutes
    ingest = create_key(ctx.ledger, LOG, "ingest")
    auditor = create_key(ctx.ledger, LOG, "auditor")
    key = ctx.ledger.run("signing-key", "create")
    if not key.ok and "exists" not in key.err:
        raise RuntimeError("signing-key create failed:\n" + key.describe())
    server = Server(ctx.ledger, ctx.workdir)
    ctx.on_exit(server.kill)
    server.start()
    state = State(server, ingest, auditor)
    state.writers = Writers(server.port, ingest, LOG, CLIENTS, "subject-soak")
    state.writers.start()
    state.readers = Readers(server.port, auditor)
    state.readers.thread.start()
    ctx.on_exit(state.writers.stop.set)
    ctx.on_exit(state.readers.stop.set)
    return state


def sample(ctx, state):
    server_kib = kib(f"/proc/{state.server.process.pid}/status", "RssAnon")
    postgres_kib, processes, largest, pid = postgres_anon_kib(ctx.cluster.postmaster_pid())
    state.local_buffers.append(local_buffers_kib(ctx, state))
    state.samples.append((time.monotonic() - state.started, server_kib, postgres_kib - state.local_buffers[-1]))
    role = ctx.cluster.scalar(f"SELECT coalesce(usename, backend_type) FROM pg_stat_activity WHERE pid = {pid}") or "postmaster"
    state.processes.append((processes, largest, role))


def trial(ctx, state, number):
    minute_started = time.monotonic()
    if number % 5 == 0:
        rebuild = ctx.ledger.run("project", "rebuild", "all", timeout=900)
        if not rebuild.ok:
            raise Violation(f"minute {number}: project rebuild all failed:\n" + rebuild.describe())
    time.sleep(max(0.0, MINUTE - (time.monotonic() - minute_started)))
    # At the end of the minute, when the writers have made the log.
    checkpoint = ctx.ledger.run("checkpoint", "--log", LOG)
    if not checkpoint.ok:
        raise Violation(f"minute {number}: checkpoint failed:\n" + checkpoint.describe())
    if state.server.process.poll() is not None:
        raise Violation(f"minute {number}: serve exited ({state.server.process.returncode}):\n" + state.server.tail())
    sample(ctx, state)
    last = number == ctx.trials
    if not last:
        return
    state.writers.stop.set()
    state.readers.stop.set()
    state.writers.finish()
    state.readers.thread.join(timeout=60)
    where = f"soak of {number} minutes on serve (port {state.server.port}), log {LOG}"
    problems = state.writers.problems + state.readers.problems
    if problems:
        raise Violation(where + ":\n" + "\n".join(problems[:5]))
    state.sents = state.writers.all_sent()
    settle(state.server.port, state.ingest, LOG, state.sents, where)
    check_stored(ctx.ledger, ctx.cluster, LOG, state.sents, where)
    server_growth, postgres_growth = growth(state)
    if server_growth > SERVER_BOUND_MIB_PER_HOUR or postgres_growth > POSTGRES_BOUND_MIB_PER_HOUR:
        raise Violation(f"{where}: memory grew {server_growth:.1f} MiB/h (serve, bound {SERVER_BOUND_MIB_PER_HOUR}) and "
                        f"{postgres_growth:.1f} MiB/h (PostgreSQL, bound {POSTGRES_BOUND_MIB_PER_HOUR}) after warm-up; "
                        f"samples (s, serve KiB, PostgreSQL KiB other than temporary buffers): {state.samples}; "
                        f"temporary buffers KiB: {state.local_buffers}; PostgreSQL (processes, largest KiB): "
                        f"{state.processes}")


def growth(state):
    after = state.samples[len(state.samples) // 4:]
    return (slope_mib_per_hour([(t, s) for t, s, _ in after]), slope_mib_per_hour([(t, p) for t, _, p in after]))


def teardown(ctx, state):
    if state:
        state.writers.stop.set()
        state.readers.stop.set()
        state.server.stop()


def summary(state):
    if not state.samples:
        return ""
    server_growth, postgres_growth = growth(state)
    first, last = state.samples[0], state.samples[-1]
    return (f"{len(state.sents)} appends, {state.readers.requests} reads; serve {first[1] // 1024}->{last[1] // 1024} MiB, "
            f"PostgreSQL {first[2] // 1024}->{last[2] // 1024} MiB private besides its temporary buffers "
            f"({state.local_buffers[0] // 1024}->{state.local_buffers[-1] // 1024} MiB); growth after warm-up {server_growth:+.1f} MiB/h serve, "
            f"{postgres_growth:+.1f} MiB/h PostgreSQL; PostgreSQL processes {state.processes[0][0]}->{state.processes[-1][0]}, "
            f"the largest {state.processes[0][1] // 1024}->{state.processes[-1][1] // 1024} MiB ({state.processes[-1][2]})")
