"""Finding and running the consent-ledger binary against the suite's own embedded cluster."""
import os
import shlex
import shutil
import signal
import subprocess
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def snapshot_binary(path, folder, wait=600):
    """A private copy of the binary for the run, so that a rebuild of `path` meanwhile cannot
    break it ("text file busy", or a half-written file). Waits until the copy answers --help."""
    copy = os.path.join(folder, "consent-ledger")
    deadline = time.monotonic() + wait
    while True:
        try:
            shutil.copy2(path, copy)
            if subprocess.run([copy, "--help"], capture_output=True).returncode == 0:
                return copy
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"faults: {path} does not run (consent-ledger --help failed for {wait} s)")
        time.sleep(5)


def find_binary():
    """CONSENT_LEDGER_BIN, else .build/debug/consent-ledger (built with swift build when missing)."""
    override = os.environ.get("CONSENT_LEDGER_BIN")
    if override:
        if not os.access(override, os.X_OK):
            raise SystemExit(f"faults: CONSENT_LEDGER_BIN={override} is not an executable file")
        return os.path.abspath(override)
    path = os.path.join(REPO, ".build", "debug", "consent-ledger")
    if not os.access(path, os.X_OK):
        print("faults: building consent-ledger (swift build --product consent-ledger) …", flush=True)
        subprocess.run(["swift", "build", "--product", "consent-ledger"], cwd=REPO, check=True)
    return path


class Outcome:
    """What one command did: its argv, exit status, output and how long it took."""

    def __init__(self, argv, rc, out, err, seconds):
        self.argv, self.rc, self.out, self.err, self.seconds = argv, rc, out, err, seconds

    @property
    def ok(self):
        return self.rc == 0

    def describe(self, limit=1500):
        """The command and what it printed, for a failure report."""
        text = f"$ {self.command_line()}\n  exit {self.rc} after {self.seconds:.1f} s"
        for name, stream in (("stdout", self.out), ("stderr", self.err)):
            stream = (stream or "").strip()
            if stream:
                if len(stream) > limit:
                    stream = stream[:limit // 2] + "\n  …\n" + stream[-limit // 2:]
                text += f"\n  {name}: " + stream.replace("\n", "\n    ")
        return text

    def command_line(self):
        return " ".join(shlex.quote(a) for a in self.argv)


class Ledger:
    """The consent-ledger CLI pointed at one embedded cluster folder (CONSENT_LEDGER_HOME)."""

    def __init__(self, binary, home, workdir):
        self.binary, self.home, self.workdir = binary, home, workdir
        self.children = []

    def env(self):
        env = dict(os.environ)
        env["CONSENT_LEDGER_HOME"] = self.home
        env.pop("DATABASE_URL", None)
        return env

    def argv(self, *args):
        return [self.binary, *[str(a) for a in args]]

    def run(self, *args, stdin_path=None, timeout=600):
        argv = self.argv(*args)
        started = time.monotonic()
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            done = subprocess.run(argv, stdin=stdin, capture_output=True, env=self.env(), cwd=self.workdir,
                                  timeout=timeout)
        except subprocess.TimeoutExpired as error:
            return Outcome(argv, -999, (error.stdout or b"").decode(errors="replace"),
                           (error.stderr or b"").decode(errors="replace") + f"\n(timed out after {timeout} s)",
                           time.monotonic() - started)
        finally:
            if stdin_path:
                stdin.close()
        return Outcome(argv, done.returncode, done.stdout.decode(errors="replace"),
                       done.stderr.decode(errors="replace"), time.monotonic() - started)

    def run_line(self, *args):
        """The command as a developer would type it (with the cluster folder in the environment)."""
        return f"CONSENT_LEDGER_HOME={shlex.quote(self.home)} " + " ".join(shlex.quote(a) for a in self.argv(*args))

    def start(self, *args, stdin_path=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE):
        """Starts a command without waiting (in a process group of its own)."""
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        process = subprocess.Popen(self.argv(*args), stdin=stdin, stdout=stdout, stderr=stderr,
                                   env=self.env(), cwd=self.workdir, start_new_session=True)
        if stdin_path:
            stdin.close()
        self.children = [child for child in self.children if child.poll() is None] + [process]
        return process

    def kill_children(self):
        """SIGKILL to every command started here that still runs (at the end of the run)."""
        for child in self.children:
            if child.poll() is None:
                try:
                    os.killpg(child.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                child.wait()
