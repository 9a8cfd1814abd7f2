"""Reading a log back and checking it: `consent-ledger events` and `consent-ledger verify`, and
the invariants every scenario shares (gapless positions, each event id once)."""
import json
import re
import uuid


class Violation(Exception):
    """An invariant that did not hold: the message says what was seen."""


def log_exists(cluster, log):
    return cluster.scalar(f"SELECT count(*) FROM ledger.logs WHERE log_id = '{log}'") == "1"


def read_log(ledger, cluster, log):
    """[(position, eventId, streamVersion, stream)] of the log, via `consent-ledger events`."""
    if not log_exists(cluster, log):
        return []
    outcome = ledger.run("events", "--log", log)
    if not outcome.ok:
        raise Violation("`events` failed:\n" + outcome.describe())
    rows = []
    for number, line in enumerate(outcome.out.splitlines(), 1):
        try:
            record = json.loads(line)
            rows.append((record["position"], record["event"]["eventId"], record["streamVersion"],
                         record["event"]["stream"]))
        except (ValueError, KeyError) as error:
            raise Violation(f"`events` line {number} is not a record ({error}): {line[:200]}")
    return rows


def check_gapless(rows, what="the log"):
    """Positions 1..n in order, and no event id twice."""
    for index, row in enumerate(rows):
        if row[0] != index + 1:
            raise Violation(f"{what}: position {index + 1} expected, found {row[0]} (a gap or a disorder)")
    seen = {}
    for row in rows:
        if row[1] in seen:
            raise Violation(f"{what}: event {row[1]} is stored twice, at positions {seen[row[1]]} and {row[0]}")
        seen[row[1]] = row[0]
    return seen


def verify(ledger, log):
    """Raises Violation unless `consent-ledger verify --log` passes."""
    outcome = ledger.run("verify", "--log", log)
    if not outcome.ok:
        raise Violation("verify failed:\n" + outcome.describe())
    return outcome


def first_bad_position(outcome):
    """The position `verify` names as first bad, or None."""
    match = re.search(r"first bad position (\d+)", outcome.out + outcome.err)
    if match:
        return int(match.group(1))
    return None


def new_event(stream, expected="any", subject=None):
    """A valid single event (AgeRangeShared) with a fresh id, as one NDJSON line."""
    subject = subject or stream.replace("subject-", "")
    event = {
        "eventId": str(uuid.uuid4()), "stream": stream, "type": "AgeRangeShared", "schemaVersion": 1,
        "occurredAt": "2026-11-20T16:02:19Z", "subject": subject, "actor": {"kind": "guardian"},
        "app": {"bundleId": "com.example.kidsdraw", "appVersion": "3.0.0", "platform": "iOS", "osVersion": "26.1"},
        "jurisdiction": {"code": "US-TX", "basis": "asserted"}, "expectedVersion": expected,
        "payload": {"lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "guardianDeclared"},
    }
    return event
