"""`consent-ledger serve` on a loopback port of the suite's range, and small HTTP calls to it."""
import http.client
import json
import os
import signal
import socket
import time

PORTS = range(56400, 56500)


def free_port():
    for port in PORTS:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 56400-56499")


class Reply:
    """One HTTP answer, or the error that stood for it (status None)."""

    def __init__(self, status=None, headers=None, body=b"", error=None):
        self.status, self.headers, self.body, self.error = status, headers or {}, body, error

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def __repr__(self):
        if self.status is None:
            return f"no answer ({self.error})"
        return f"{self.status} {self.body[:300].decode(errors='replace')}"


class Client:
    """One keep-alive HTTP connection to the server (one per thread)."""

    def __init__(self, port, token=None, timeout=30):
        self.port, self.token, self.timeout = port, token, timeout
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        all_headers = dict(headers or {})
        if self.token:
            all_headers["Authorization"] = "Bearer " + self.token
        if body is not None:
            all_headers.setdefault("Content-Type", "application/x-ndjson")
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            self.connection.request(method, path, body=body, headers=all_headers)
            response = self.connection.getresponse()
            data = response.read()
            reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            return reply
        except (OSError, http.client.HTTPException) as error:
            self.close()
            return Reply(error=f"{type(error).__name__}: {error}")

    def close(self):
        if self.connection is not None:
            try:
                self.connection.close()
            except OSError:
                pass
            self.connection = None


class Server:
    """A running `consent-ledger serve`, its log in the suite's folder."""

    def __init__(self, ledger, logdir, port=None, extra=()):
        self.ledger, self.logdir, self.extra = ledger, logdir, list(extra)
        self.port = port or free_port()
        self.process = None
        self.starts = 0

    def start(self, wait=120):
        self.starts += 1
        self.log_path = os.path.join(self.logdir, f"serve-{self.port}-{self.starts}.log")
        log = open(self.log_path, "wb")
        self.process = self.ledger.start("serve", "--host", "127.0.0.1", "--port", self.port, *self.extra,
                                         stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + wait
        probe = Client(self.port, timeout=5)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited with {self.process.returncode} at start:\n" + self.tail())
            reply = probe.request("GET", "/health")
            if reply.status == 200:
                probe.close()
                return
            time.sleep(0.2)
        raise RuntimeError("serve did not answer /health in time:\n" + self.tail())

    def kill(self, sig=signal.SIGKILL):
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, sig)
            self.process.wait(timeout=60)

    def stop(self):
        """SIGTERM (graceful), SIGKILL after 30 s."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except Exception:
                self.kill()

    def tail(self, lines=15):
        try:
            with open(self.log_path, errors="replace") as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return ""

    def crash_report(self, lines=60):
        """What a dead serve's log says of why it died: from the Swift runtime's first crash line
        ("Fatal error", "Program crashed") on, with the frames after it; the log's tail when there
        is none. (The tail alone showed only the end of a backtrace's image list.)"""
        try:
            with open(self.log_path, errors="replace") as handle:
                text = handle.readlines()
        except OSError:
            return ""
        for index, line in enumerate(text):
            if "Fatal error" in line or "Program crashed" in line or "fatal error" in line:
                return "".join(text[max(0, index - 3):index + lines])
        return "".join(text[-15:])


def await_ready(server, probe, since, limit=60.0):
    """Polls `/ready` through `probe` until it answers 200. Returns (seconds from `since` until it
    did, or None when `limit` seconds passed first or serve exited; the last answer)."""
    while True:
        ready = probe.request("GET", "/ready")
        if ready.status == 200:
            return time.monotonic() - since, ready
        if time.monotonic() - since > limit or server.process.poll() is not None:
            return None, ready
        time.sleep(0.2)
