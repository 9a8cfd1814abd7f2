"""slow-readers: clients that stop reading `GET …/events` of a large log while another tenant reads
(issue 36, finding 1; decision 0055)."""
import socket
import time

from .checks import Violation
from .history import simulated
from .keys import create_key
from .server import Server

NAME = "slow-readers"
INVARIANT = ("8 stalled GET …/events of a ~27,000-event log (2 auditor keys, more streams than the auditor pool's 6 "
             "connections): another tenant's events and /ready answer 200 within 15 s; each stalled stream is 200, "
             "or 429 with Retry-After for its key's share")
DEFAULT_TRIALS = 10
QUICK_TRIALS = 1
QUICK_SECONDS = 60
BIG, OTHER = "sr", "sr-other"
STALLED_PER_KEY = 4
ANSWER_WITHIN = 15.0


class State:
    def __init__(self, server, big_tokens, other_token):
        self.server, self.big_tokens, self.other_token = server, big_tokens, other_token
        self.slowest = 0.0


def setup(ctx, trials):
    history = simulated(ctx, families=1000, days=30, seed=7)
    for log, path in ((BIG, history.path), (OTHER, simulated(ctx).path)):
        outcome = ctx.ledger.run("append", "--log", log, "--bulk", "--file", path)
        if not outcome.ok:
            raise RuntimeError(f"append to {log} failed:\n" + outcome.describe())
    big_tokens = [create_key(ctx.ledger, BIG, role="auditor") for _ in range(2)]
    other_token = create_key(ctx.ledger, OTHER, role="auditor")
    server = Server(ctx.ledger, ctx.workdir, extra=("--no-projections",))
    ctx.on_exit(server.kill)
    return State(server, big_tokens, other_token)


def head(port, path, token, receive_buffer=None):
    """Opens a connection, sends `GET path` and reads one byte at a time until the end of the
    response head: the body stays unread, a client that has stopped reading. Returns the socket,
    still open, and the head (b"" when none came within ANSWER_WITHIN seconds)."""
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(ANSWER_WITHIN)
    received = b""
    try:
        sock.connect(("127.0.0.1", port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
        while not received.endswith(b"\r\n\r\n"):
            byte = sock.recv(1)
            if not byte:
                break
            received += byte
    except OSError:
        pass
    return sock, received


def trial(ctx, state, number):
    server = state.server
    server.start()
    stalled = []
    try:
        where = f"trial {number}: serve on port {server.port}, server log {server.log_path}"
        for token in state.big_tokens:
            for _ in range(STALLED_PER_KEY):
                sock, answer = head(server.port, f"/v1/logs/{BIG}/events", token, receive_buffer=4096)
                stalled.append(sock)
                status = answer.split(b" ", 2)[1] if answer.count(b" ") >= 2 else b"none"
                if status == b"429" and b"retry-after:" in answer.lower():
                    continue
                if status != b"200":
                    raise Violation(f"{where}: a stalled stream was answered {answer[:200]!r}")
        for path in (f"/v1/logs/{OTHER}/events?limit=10", "/ready"):
            started = time.monotonic()
            sock, answer = head(server.port, path, state.other_token)
            sock.close()
            seconds = time.monotonic() - started
            state.slowest = max(state.slowest, seconds)
            if not answer.startswith(b"HTTP/1.1 200"):
                raise Violation(f"{where}: with {len(stalled)} streams stalled, another tenant's {path} was answered "
                                f"{answer[:200]!r} after {seconds:.1f} s (expected 200 within {ANSWER_WITHIN:.0f} s)")
    finally:
        for sock in stalled:
            sock.close()
        server.stop()


def teardown(ctx, state):
    if state:
        state.server.stop()


def summary(state):
    return f"another tenant's slowest answer {state.slowest:.2f} s"
