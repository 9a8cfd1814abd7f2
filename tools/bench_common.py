"""What tools/bench_findings.py and tools/bench_webhooks.py share: CPU time of a process and of the
cluster, percentiles, and the events they append (a violation of answer-before-question, an
ordinary event of the simulated history under a new id)."""
import json
import os
import time
import uuid

TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid):
    """User and system CPU seconds of process `pid` so far (0 when it is gone)."""
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / TICK
    except OSError:
        return 0.0


def cluster_cpu():
    """CPU seconds of every postgres process so far."""
    total = 0.0
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if open(f"/proc/{p}/comm").read().strip() == "postgres": total += cpu(p)
            except OSError:
                pass
    return total


def pct(xs, p):
    """The p-th percentile of `xs` (nearest rank)."""
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def violation():
    """An answer to a question never asked: the rule answer-before-question finds it at its position."""
    q = str(uuid.uuid4()); now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return json.dumps({"eventId": str(uuid.uuid4()), "stream": f"question-{q}", "type": "ParentalAnswerReceived", "schemaVersion": 1,
                       "occurredAt": now, "subject": "p_bench1", "actor": {"kind": "app"},
                       "payload": {"answer": "approval", "channel": "message", "choiceId": "allow", "choiceTitle": "Allow",
                                   "questionId": q, "receivedAt": now}})


def fresh(line):
    """An ordinary event of the simulated history under a new event id, so that it is stored again."""
    event = json.loads(line); event["eventId"] = str(uuid.uuid4()); return json.dumps(event)


def append(conn, token, lines, log="acme"):
    """POSTs `lines` (NDJSON events) to `log` with an ingest key; the 201's body, or exits on anything else."""
    conn.request("POST", f"/v1/logs/{log}/events", body="\n".join(lines) + "\n",
                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/x-ndjson"})
    r = conn.getresponse(); body = r.read()
    if r.status != 201: raise SystemExit(f"append answered {r.status}: {body[:300]!r}")
    return json.loads(body)
