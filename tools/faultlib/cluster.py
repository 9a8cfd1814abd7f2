"""The suite's own embedded PostgreSQL cluster, in a temporary folder: started with
`consent-ledger db start`, reached with psql on its Unix socket, killed and restarted by the
scenarios, stopped and removed at the end."""
import glob
import os
import re
import shutil
import signal
import subprocess
import time

from .cli import Outcome

DATABASE = "consent_ledger"
SUPERUSER = "postgres"
APP = "consent_ledger_app"
AUDITOR = "consent_ledger_auditor"
WRITER = "consent_ledger_writer"
OWNER = "consent_ledger_owner"


def pg_bindir():
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(candidate, "pg_ctl")):
            return candidate
    raise SystemExit("faults: no PostgreSQL server programs found (run tools/install-postgres)")


class Cluster:
    """One embedded cluster (the folder `home`), driven through the CLI and psql."""

    def __init__(self, ledger):
        self.ledger = ledger
        self.home = ledger.home
        self.socket_dir = None
        self.port = None

    # -- lifecycle --------------------------------------------------------------------------
    def start(self, attempts=60):
        """`db start`, retried while a killed server's last processes are still exiting."""
        last = None
        for _ in range(attempts):
            last = self.ledger.run("db", "start", timeout=120)
            if last.ok:
                self._read_status()
                return last
            time.sleep(1)
        raise RuntimeError("the embedded cluster did not start:\n" + last.describe())

    def _read_status(self):
        status = self.ledger.run("db", "status")
        match = re.search(r"psql -h (\S+) -p (\d+)", status.out)
        if not match:
            raise RuntimeError("`db status` printed no psql line:\n" + status.describe())
        self.socket_dir, self.port = match.group(1), match.group(2)

    def wait_ready(self, seconds=120):
        """Until the server accepts queries (crash recovery done), starting it if it is down."""
        deadline = time.monotonic() + seconds
        while True:
            probe = self.psql("SELECT 1", timeout=30)
            if probe.ok:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster does not answer:\n" + probe.describe())
            pid = self.postmaster_pid()
            alive = False
            if pid:
                try:
                    os.kill(pid, 0)
                    alive = True
                except ProcessLookupError:
                    pass
            if not alive:
                self.start()
            time.sleep(1)

    def migrate(self):
        outcome = self.ledger.run("migrate", timeout=300)
        if not outcome.ok:
            raise RuntimeError("migrate failed:\n" + outcome.describe())

    def stop(self):
        return self.ledger.run("db", "stop", timeout=120)

    @property
    def data_dir(self):
        return os.path.join(self.home, "pgdata")

    def postmaster_pid(self):
        try:
            with open(os.path.join(self.data_dir, "postmaster.pid")) as handle:
                return int(handle.readline().strip())
        except (OSError, ValueError):
            return None

    def kill_postmaster(self):
        """SIGKILL to the postmaster (its backends notice and exit on their own). Returns the pid."""
        pid = self.postmaster_pid()
        if pid:
            os.kill(pid, signal.SIGKILL)
        return pid

    def stop_immediate(self):
        """`pg_ctl stop -m immediate`, as the postgres user: no checkpoint, crash recovery at start."""
        argv = [os.path.join(pg_bindir(), "pg_ctl"), "-D", self.data_dir, "-m", "immediate", "-w", "stop"]
        if os.geteuid() == 0:     # the cluster runs as postgres (PostgreSQL refuses root)
            argv = ["runuser", "-u", SUPERUSER, "--"] + argv
        started = time.monotonic()
        done = subprocess.run(argv, capture_output=True, text=True)
        return Outcome(argv, done.returncode, done.stdout, done.stderr, time.monotonic() - started)

    def remove(self):
        """Stops the cluster however it can, then removes its folder."""
        if os.path.exists(self.data_dir):
            try:
                stopped = self.stop().ok
            except OSError:
                stopped = False
            if not stopped:
                pid = self.postmaster_pid()
                if pid:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
        shutil.rmtree(self.home, ignore_errors=True)

    # -- SQL --------------------------------------------------------------------------------
    def psql_argv(self, sql, user=SUPERUSER, database=DATABASE):
        return ["psql", "-X", "-q", "-A", "-t", "-h", self.socket_dir, "-p", self.port, "-U", user, "-d", database,
                "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose", "-c", sql]

    def psql(self, sql, user=SUPERUSER, database=DATABASE, timeout=120):
        argv = self.psql_argv(sql, user, database)
        started = time.monotonic()
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return Outcome(argv, -999, "", f"(timed out after {timeout} s)", time.monotonic() - started)
        return Outcome(argv, done.returncode, done.stdout, done.stderr, time.monotonic() - started)

    def query(self, sql, user=SUPERUSER):
        """Rows of a query as lists of strings; raises on failure."""
        outcome = self.psql(sql, user)
        if not outcome.ok:
            raise RuntimeError("psql failed:\n" + outcome.describe())
        return [line.split("|") for line in outcome.out.splitlines() if line != ""]

    def scalar(self, sql, user=SUPERUSER):
        rows = self.query(sql, user)
        return rows[0][0] if rows else None
