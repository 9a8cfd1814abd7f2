"""disk-full: a second embedded cluster whose WAL lives on a 64 MiB tmpfs, filled (all but a few
MiB) while `append --batch-size 100 --verbose` runs (odd trials) or while 4 clients post single
events to `serve` (even trials; serve is started once and never restarted); then the space is
freed. Needs root (mount)."""
import errno
import json
import os
import pwd
import re
import shutil
import subprocess
import time

from . import checks
from .checks import Violation
from .cli import Ledger
from .cluster import Cluster, SUPERUSER
from .history import check_prefix, simulated
from .ingest import Writers, check_stored, settle
from .keys import create_key
from .server import Client, Server, await_ready

NAME = "disk-full"
INVARIANT = ("WAL on a full 64 MiB tmpfs under CLI and serve appends: a clear error (serve: 503 with Retry-After), "
             "every acknowledged event stored, whole batches only, verify passes; appends work again once space "
             "is freed, serve unrestarted")
DEFAULT_TRIALS = 10
QUICK_TRIALS = 2
QUICK_SECONDS = 90
BATCH = 100
CLIENTS = 4
FULL_SECONDS = 6.0
SERVE_LOG = "df-serve"


class State:
    def __init__(self, ledger, cluster, mount, history, server, token):
        self.ledger, self.cluster, self.mount, self.history = ledger, cluster, mount, history
        self.server, self.token = server, token
        self.filled = 0
        self.errors = {}
        self.wal = []
        self.sents = []
        self.serve_answers = {}
        self.recoveries = []


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip()}")


def setup(ctx, trials):
    if os.geteuid() != 0:
        raise RuntimeError("disk-full needs root (it mounts a tmpfs for the WAL)")
    history = simulated(ctx)
    ledger = Ledger(ctx.ledger.binary, ctx.path("diskfull-cluster"), ctx.workdir)
    cluster = Cluster(ledger)
    mount = ctx.path("walfs")
    os.makedirs(mount, exist_ok=True)
    run(["mount", "-t", "tmpfs", "-o", "size=64m,mode=0700", "tmpfs", mount])
    ctx.on_exit(lambda: subprocess.run(["umount", "-l", mount]))
    ctx.on_exit(cluster.remove)
    cluster.start()
    cluster.migrate()
    # Keep no spare WAL segments around (none recycled, checkpoints often), so that every new
    # segment needs free space on the tmpfs.
    for setting in ("min_wal_size = '32MB'", "max_wal_size = '48MB'", "wal_recycle = off"):
        cluster.query("ALTER SYSTEM SET " + setting)
    cluster.stop()
    postgres = pwd.getpwnam(SUPERUSER)
    wal = os.path.join(cluster.data_dir, "pg_wal")
    target = os.path.join(mount, "pg_wal")
    shutil.copytree(wal, target, symlinks=True)
    for folder, _dirs, files in os.walk(mount):
        for name in [folder] + [os.path.join(folder, f) for f in files]:
            os.chown(name, postgres.pw_uid, postgres.pw_gid)
    shutil.rmtree(wal)
    os.symlink(target, wal)
    cluster.start()
    token = create_key(ledger, SERVE_LOG)
    # No projections: only the trials' appends write WAL, so that the room left is what they meet.
    server = Server(ledger, ctx.workdir, extra=["--no-projections"])
    ctx.on_exit(server.kill)
    server.start()
    return State(ledger, cluster, mount, history, server, token)


FILLER = "filler"


def fill(state, leave):
    """Writes a filler file so that only `leave` bytes stay free on the tmpfs (fewer, when the
    database takes some meanwhile: the write stops at a full disk). Returns the free bytes before.
    The caller removes it (`empty`) whatever happens next."""
    stats = os.statvfs(state.mount)
    free = stats.f_bavail * stats.f_frsize
    size = max(0, free - leave)
    with open(os.path.join(state.mount, FILLER), "wb") as handle:
        chunk = b"\0" * (1 << 20)
        try:
            while size > 0:
                written = handle.write(chunk[:min(size, len(chunk))])
                size -= written
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
    return free


def empty(state):
    """Removes the filler, if there is one."""
    try:
        os.remove(os.path.join(state.mount, FILLER))
    except FileNotFoundError:
        pass


def near_segment_end(ctx, cluster, most):
    """Puts the WAL's insert position R bytes before the end of a segment (R from 64 KiB to `most`,
    less than the appends will write), so that the appends need a new 16 MiB segment part of the
    way through. Returns (R, the bytes to leave free: less than a segment)."""
    cluster.query("CHECKPOINT")
    cluster.query("SELECT pg_switch_wal()")
    room = ctx.rng.randrange(1 << 16, most)
    cluster.query(f"SELECT pg_logical_emit_message(false, 'faults', repeat('x', 1048576)) "
                  f"FROM generate_series(1, {((16 << 20) - room) >> 20})")
    return room, ctx.rng.randrange(1, 8) << 20


def trial(ctx, state, number):
    if number % 2 == 1:
        cli_trial(ctx, state, number)
    else:
        serve_trial(ctx, state, number)


def serve_trial(ctx, state, number):
    cluster, server = state.cluster, state.server
    if server.process.poll() is not None:
        raise Violation(f"trial {number}: serve is no longer running (exit {server.process.returncode}); "
                        f"log {server.log_path}:\n{server.crash_report()}")
    # A few hundred single events write well under a MiB of WAL.
    room, leave = near_segment_end(ctx, cluster, 1 << 19)
    writers = Writers(server.port, state.token, SERVE_LOG, CLIENTS, f"subject-df{number}", allowed=(200, 201, 503, 429))
    try:
        free = fill(state, leave)
        writers.start()
        time.sleep(FULL_SECONDS)
    finally:
        empty(state)
    where = (f"trial {number}: WAL about {room / (1 << 20):.1f} MiB before a segment's end, the tmpfs filled to "
             f"leave {leave >> 20} MiB of {free >> 20} MiB free for {FULL_SECONDS:.0f} s of {CLIENTS} clients' "
             f"appends to serve (port {server.port}, log {server.log_path})")
    cluster.wait_ready()
    probe = Client(server.port, state.token, timeout=30)
    recovered, ready = await_ready(server, probe, time.monotonic())
    probe.close()
    if recovered is None:
        writers.finish()
        raise Violation(f"{where}: serve was not ready within 60 s of the space being freed (last /ready: "
                        f"{ready!r}):\n" + server.tail())
    state.recoveries.append(recovered)
    time.sleep(1.0)
    writers.finish()
    for status, count in writers.statuses.items():
        state.serve_answers[status] = state.serve_answers.get(status, 0) + count
    if any(status == 503 for status in writers.statuses):
        state.filled += 1
    if writers.problems:
        raise Violation(where + "\n" + "\n".join(writers.problems[:6]))
    sents = writers.all_sent()
    settle(server.port, state.token, SERVE_LOG, sents, where)
    state.sents.extend(sents)
    check_stored(state.ledger, cluster, SERVE_LOG, state.sents, where)


def cli_trial(ctx, state, number):
    cluster, ledger, history = state.cluster, state.ledger, state.history
    room, leave = near_segment_end(ctx, cluster, 5 << 19)      # one history writes about 4 MiB
    log = f"df-{number}"
    argv = ("append", "--log", log, "--batch-size", BATCH, "--verbose", "--file", history.path)
    start_lsn = cluster.scalar("SELECT pg_current_wal_lsn()")
    try:
        free = fill(state, leave)
        first = ledger.run(*argv, timeout=180)
    finally:
        empty(state)
    where = (f"trial {number}: WAL about {room / (1 << 20):.1f} MiB before a segment's end, the tmpfs filled to "
             f"leave {leave >> 20} MiB of {free >> 20} MiB free during "
             f"{ledger.run_line(*argv)} (exit {first.rc})")
    if not first.ok:
        state.filled += 1
        lines = first.err.strip().splitlines() or ["(nothing)"]
        message = next((l for l in lines if "error" in l.lower()), lines[0]).strip()
        message = re.sub(r"\d+", "N", message)[:200]
        state.errors[message] = state.errors.get(message, 0) + 1
        if not first.err.strip():
            raise Violation(f"{where}: append failed without a word on stderr")
    # The server may have stopped (a PANIC when WAL cannot be written): start it again if so.
    cluster.wait_ready()
    state.wal.append(int(float(cluster.scalar(f"SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '{start_lsn}')"))))
    acknowledged = [line for line in first.out.splitlines() if line.strip()]
    rows = checks.read_log(ledger, cluster, log)
    at = checks.check_gapless(rows, where)
    kept = check_prefix(rows, history, where)
    if kept % BATCH != 0 and kept != len(history):
        raise Violation(f"{where}: {kept} events stored, not a whole number of batches of {BATCH}")
    for line in acknowledged:
        ack = json.loads(line)
        if at.get(ack["eventId"]) != ack["position"]:
            raise Violation(f"{where}: line {ack['line']} acknowledged at position {ack['position']} is stored at "
                            f"{at.get(ack['eventId'])}\n" + first.describe())
    if first.ok and kept != len(history):
        raise Violation(f"{where}: append exited 0 but {kept} of {len(history)} events are stored")
    if rows:
        checks.verify(ledger, log)
    again = ledger.run(*argv, timeout=300)
    if not again.ok:
        raise Violation(f"{where}: with the space freed, the same command failed:\n" + again.describe())
    rows = checks.read_log(ledger, cluster, log)
    checks.check_gapless(rows, where + ", after the rerun")
    if check_prefix(rows, history, where + ", after the rerun") != len(history):
        raise Violation(f"{where}: after the rerun {len(rows)} of {len(history)} events are stored")
    checks.verify(ledger, log)


def teardown(ctx, state):
    if state:
        state.server.stop()


def summary(state):
    errors = "; ".join(f"{count}x {message!r}" for message, count in state.errors.items())
    wal = f"; CLI WAL per trial up to {max(state.wal) >> 20} MiB" if state.wal else ""
    serve = (f"; serve ready {max(state.recoveries):.1f} s at most after the space was freed, its appends "
             f"answered {dict(sorted(state.serve_answers.items(), key=lambda kv: str(kv[0])))}") if state.recoveries else ""
    return f"the disk ran out in {state.filled} trials{wal}{serve}" + (f": {errors}" if errors else "")
