#!/usr/bin/env python3
"""A log with a large consent register, for the console's browser test at scale (issue 21: the
register "tested with 100,000 entries"), written as NDJSON events on standard output.

Six apps each declare a significant change; --entries / 4 children each share an age range with
parental approval required; then each child's app asks --entries / (children) questions about its
change over a year, in time order. A question is approved (45%), denied (20%), left to expire
(20%) or still pending (15%); an answer names its guardian 60% of the time. About 2.7 events per
entry. Deterministic for a --seed.

Usage: tools/register_load.py --entries 100000 [--seed 1] > large.ndjson
"""
import argparse, datetime, json, random, sys, uuid

APPS = ["com.example.worldcraft", "com.example.quizquest", "com.example.pixelpets", "com.example.storytime",
        "com.example.chatterbox", "com.example.mathmaze"]

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    uid = lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4))
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ")
    out = sys.stdout
    write = lambda event: out.write(json.dumps(event, separators=(",", ":")) + "\n")
    app = lambda bundle: {"bundleId": bundle, "appVersion": "2.0.0", "platform": "iOS", "osVersion": "26.1", "environment": "production"}
    place = {"code": "US-TX", "basis": "storefront"}
    changes = {}
    for bundle in APPS:
        change = bundle.rsplit(".", 1)[1] + "-2.0.0"
        changes[bundle] = change
        write({"eventId": uid(), "stream": f"change-{change}", "type": "SignificantChangeDeclared", "schemaVersion": 1,
               "occurredAt": stamp(start), "actor": {"kind": "app"},
               "app": {"bundleId": bundle, "appVersion": "2.0.0", "platform": "server", "environment": "production"},
               "payload": {"ageRatingAfter": "9+", "ageRatingBefore": "4+", "changeId": change,
                           "description": "Version 2.0 adds chat with other players.", "introducedInVersion": "2.0.0"}})
    children = max(1, args.entries // 4)
    subjects = []
    for n in range(children):
        subject = "p_%032x" % rng.getrandbits(128)
        bundle = APPS[n % len(APPS)]
        subjects.append((subject, bundle))
        write({"eventId": uid(), "stream": f"subject-{subject}", "type": "AgeRangeShared", "schemaVersion": 2,
               "occurredAt": stamp(start + datetime.timedelta(seconds=n)), "subject": subject,
               "actor": {"kind": "subject", "id": subject}, "app": app(bundle), "jurisdiction": place,
               "payload": {"activeParentalControls": ["significantAppChangeApprovalRequired"],
                           "ageRangeDeclaration": "selfDeclared", "lowerBound": 13, "upperBound": 15}})
    asked = sorted(start + datetime.timedelta(days=1, seconds=rng.randrange(364 * 86400)) for _ in range(args.entries))
    for n, at in enumerate(asked):
        subject, bundle = subjects[n % children]
        question = uid()
        expires = at + datetime.timedelta(days=3)
        sent = uid()
        common = {"subject": subject, "app": app(bundle), "jurisdiction": place, "correlationId": question}
        write({"eventId": sent, "stream": f"question-{question}", "type": "PermissionQuestionSent", "schemaVersion": 1,
               "occurredAt": stamp(at), "actor": {"kind": "app"}, **common,
               "payload": {"changeId": changes[bundle], "questionId": question, "expirationDate": stamp(expires), "sentVia": "askCenter",
                           "choices": [{"answer": "approval", "id": "allow", "title": "Allow"},
                                       {"answer": "denial", "id": "deny", "title": "Don’t Allow"}],
                           "topic": {"significantAppUpdate": {"description": "Version 2.0 adds chat with other players."}}}})
        roll = rng.random()
        if roll < 0.65:
            answer = "approval" if roll < 0.45 else "denial"
            when = at + datetime.timedelta(seconds=rng.randrange(60, 2 * 86400))
            payload = {"answer": answer, "channel": "message", "choiceId": "allow" if answer == "approval" else "deny",
                       "choiceTitle": "Allow" if answer == "approval" else "Don’t Allow", "questionId": question, "receivedAt": stamp(when)}
            actor = {"kind": "guardian"}
            if rng.random() < 0.6:
                guardian = "g_%032x" % rng.getrandbits(128)
                payload["guardianId"] = guardian
                actor["id"] = guardian
            write({"eventId": uid(), "stream": f"question-{question}", "type": "ParentalAnswerReceived", "schemaVersion": 1,
                   "occurredAt": stamp(when), "actor": actor, **common, "causationId": sent, "payload": payload})
        elif roll < 0.85:
            write({"eventId": uid(), "stream": f"question-{question}", "type": "QuestionExpired", "schemaVersion": 1,
                   "occurredAt": stamp(expires), "actor": {"kind": "system"}, **common, "causationId": sent,
                   "payload": {"expirationDate": stamp(expires), "questionId": question}})

if __name__ == "__main__":
    main()
