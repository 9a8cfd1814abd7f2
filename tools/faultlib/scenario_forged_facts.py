"""forged-facts: issue 36, finding 4. An ingest or admin key over HTTP, the application role from psql,
and `append` (and `append --bulk`) try to store the ledger's own facts (SubjectErased, a backdated
RetentionApplied, a WithdrawalDelivered no delivery vouches for) and a ConsentRescinded claiming the
App Store with no signed notification. Each must be refused, nothing stored, and the subject's key
left intact (decisions 0056, 0084)."""
import json
import uuid

from .checks import Violation
from .cluster import APP
from .keys import create_key
from .server import Client, Server

NAME = "forged-facts"
INVARIANT = ("SubjectErased, a backdated RetentionApplied, a WithdrawalDelivered and a ConsentRescinded as the App Store, through POST events "
             "(ingest, admin), psql as the app role, append and append --bulk: refused (403 / CL010 / append-not-permitted), "
             "nothing stored, the subject's key intact")
DEFAULT_TRIALS = 0          # every attempt once (set in setup)
QUICK_TRIALS = 0
QUICK_SECONDS = 120
LOG = "forged"
SUBJECT = "p_forged"


def event(kind):
    """A fresh forged event of `kind`, as one JSON line."""
    base = {"eventId": str(uuid.uuid4()), "schemaVersion": 1, "occurredAt": "2026-11-23T09:00:00Z"}
    if kind == "SubjectErased":
        base.update(stream="subject-" + SUBJECT, subject=SUBJECT, type=kind, actor={"kind": "ledger"},
                    payload={"subjectId": SUBJECT, "reason": "erasureRequest"})
    elif kind == "RetentionApplied":
        base.update(stream="retention", type=kind, actor={"kind": "ledger"}, occurredAt="2025-01-01T00:00:00Z",
                    payload={"policyId": "retention-2026-01", "scope": "subjectKeys", "reason": "retentionPeriodElapsed",
                             "subjectIds": [SUBJECT]})
    elif kind == "WithdrawalDelivered":
        base.update(stream="subject-" + SUBJECT, subject=SUBJECT, type=kind, actor={"kind": "ledger"},
                    payload={"rescissionEventId": str(uuid.uuid4()), "rescissionPosition": 1, "subscriptionId": "sub_forged000000",
                             "deliveryId": 1, "attempt": 1, "status": 200, "deliveredAt": "2026-11-23T09:00:00.000Z"})
    else:
        base.update(stream="subject-" + SUBJECT, subject=SUBJECT, type="ConsentRescinded", actor={"kind": "appStore"},
                    payload={"notificationUUID": str(uuid.uuid4()), "signedDate": 1795000000000, "bundleId": "com.example.kidsdraw",
                             "environment": "Production", "signatureCheck": "valid", "enforcementAction": "accessRevoked"})
    return json.dumps(base, separators=(",", ":"))


class State:
    def __init__(self, server, tokens, attempts):
        self.server, self.tokens, self.attempts = server, tokens, attempts


def setup(ctx, trials):
    # A subject with a key: an operator's note (personal data, sealed under it).
    note = ctx.path("forged-note.ndjson")
    with open(note, "w") as handle:
        handle.write(json.dumps({
            "eventId": str(uuid.uuid4()), "stream": "subject-" + SUBJECT, "type": "OperatorDecision", "schemaVersion": 1,
            "occurredAt": "2026-11-22T10:15:00Z", "subject": SUBJECT, "actor": {"kind": "operator", "id": "op_1"},
            "payload": {"affectedSubjectId": SUBJECT, "decision": "annotation", "operatorId": "op_1", "reason": "parent phoned"},
        }) + "\n")
    outcome = ctx.ledger.run("append", "--log", LOG, "--file", note)
    if not outcome.ok:
        raise RuntimeError("append failed:\n" + outcome.describe())
    tokens = {role: create_key(ctx.ledger, LOG, role) for role in ("ingest", "admin")}
    server = Server(ctx.ledger, ctx.workdir)
    ctx.on_exit(server.kill)
    server.start()
    attempts = [(via, kind) for kind in ("SubjectErased", "RetentionApplied", "WithdrawalDelivered", "ConsentRescinded")
                for via in ("http-ingest", "http-admin", "psql-app", "append", "append-bulk")
                # The database cannot verify a JWS: it leaves the App Store route to the server (decision 0056).
                if not (via == "psql-app" and kind == "ConsentRescinded")]
    return State(server, tokens, attempts)


def stored(ctx):
    return ctx.cluster.scalar(f"SELECT count(*) || '/' || (SELECT count(*) FROM ledger.subject_keys WHERE log_id = '{LOG}' "
                              f"AND subject = '{SUBJECT}' AND key IS NOT NULL) FROM ledger.events WHERE log_id = '{LOG}'")


def trial(ctx, state, number):
    via, kind = state.attempts[(number - 1) % len(state.attempts)]
    line = event(kind)
    before = stored(ctx)
    what = f"{kind} through {via}"
    if via.startswith("http-"):
        client = Client(state.server.port, state.tokens[via[5:]])
        reply = client.request("POST", f"/v1/logs/{LOG}/events", body=line.encode())
        client.close()
        problem = reply.json() or {}
        if reply.status != 403 or not str(problem.get("type", "")).endswith("/append-not-permitted"):
            raise Violation(f"{what} was not refused with 403 append-not-permitted: {reply!r}")
    elif via == "psql-app":
        literal = line.replace("'", "''")
        outcome = ctx.cluster.psql(f"SELECT * FROM ledger.append_events('{LOG}', ARRAY['{literal}'])", user=APP)
        if outcome.ok or "CL010" not in outcome.err and "recorded by the ledger itself" not in outcome.err:
            raise Violation(f"{what} was not refused (CL010):\n" + outcome.describe())
    else:
        path = ctx.path(f"forged-{number}.ndjson")
        with open(path, "w") as handle:
            handle.write(line + "\n")
        outcome = ctx.ledger.run("append", "--log", LOG, "--file", path, *(["--bulk"] if via == "append-bulk" else []))
        if outcome.ok or "line 1" not in outcome.err or "this way" not in outcome.err and "ledger itself" not in outcome.err:
            raise Violation(f"{what} was not refused naming the line and the way to do it:\n" + outcome.describe())
    after = stored(ctx)
    if before != after or not after.endswith("/1"):
        raise Violation(f"{what}: refused, but events/intact keys went {before} -> {after}")


def teardown(ctx, state):
    if state:
        state.server.stop()


def summary(state):
    return f"{len(state.attempts)} attempts" if state else ""
