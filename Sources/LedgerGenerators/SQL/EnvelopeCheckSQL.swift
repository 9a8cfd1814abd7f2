import LedgerCore

/// Writes the SQL expression that finds the first problem of an event's envelope, in the order and
/// with the constants of ``EventEnvelope/init(validating:)``: unknown top-level members (sorted),
/// then `eventId`, `stream`, `type`, `schemaVersion`, `occurredAt`, `subject`, `correlationId`,
/// `causationId`, `actor`, `app`, `jurisdiction` and `payload`.
///
/// Two differences from a client's input, because the database receives the event the Swift
/// client has already processed: `derived` is allowed (the append compares it with what it
/// computes), and `expectedVersion` is refused (the append takes it as `p_expected_versions`).
enum EnvelopeCheckSQL {
    typealias Pattern = FieldReader.Pattern

    /// The members the database accepts at the top level of an event.
    static var allowedMembers: [String] {
        EventEnvelope.inputFields.filter { $0 != "expectedVersion" } + [EventCatalogue.derivedMember]
    }

    /// The first problem of the event `event` (a jsonb expression known to be an object).
    static func problem(_ event: String) -> String {
        let top = SQLPath("")
        let ledgerOwned = EventEnvelope.ledgerFields.subtracting([EventCatalogue.derivedMember]).sorted()
        let unknown = SQLText.firstUnknownMember(event, allowed: allowedMembers, problem:
            "CASE WHEN k IN (\(SQLText.list(ledgerOwned))) THEN k || ': ' || k || ' is set by the ledger, not by the client'"
            + " WHEN k = 'expectedVersion' THEN 'expectedVersion: a write condition, not part of the event; pass it in p_expected_versions'"
            + " ELSE k || ': unknown envelope field' END")
        let actor = SQLText.member(event, "actor")
        let app = SQLText.member(event, "app")
        let jurisdiction = SQLText.member(event, "jurisdiction")
        let checks = [
            unknown,
            string(event, "eventId", top, pattern: .uuid, required: true),
            string(event, "stream", top, pattern: .stream, required: true),
            string(event, "type", top, pattern: .typeName, required: true),
            schemaVersion(event),
            timestamp(event, "occurredAt"),
            string(event, "subject", top, pattern: .pseudonym, required: false),
            string(event, "correlationId", top, pattern: .identifier, required: false),
            string(event, "causationId", top, pattern: .identifier, required: false),
            object(event, "actor", top, required: true, allowed: ["kind", "id"], members: [
                oneOf(actor, "kind", top.child("actor"), EventEnvelope.Actor.kinds, required: true),
                string(actor, "id", top.child("actor"), pattern: .pseudonym, required: false),
            ]),
            object(event, "app", top, required: false, allowed: EventEnvelope.AppInfo.members, members: [
                string(app, "bundleId", top.child("app"), pattern: .bundleId, required: true),
                string(app, "appVersion", top.child("app"), pattern: .version, required: false),
                oneOf(app, "platform", top.child("app"), EventEnvelope.AppInfo.platforms, required: false),
                string(app, "osVersion", top.child("app"), pattern: .version, required: false),
                oneOf(app, "environment", top.child("app"), EventEnvelope.AppInfo.environments, required: false),
                string(app, "originalAppVersion", top.child("app"), pattern: .version, required: false),
            ]),
            object(event, "jurisdiction", top, required: false, allowed: ["code", "basis"], members: [
                string(jurisdiction, "code", top.child("jurisdiction"), pattern: .jurisdiction, required: true),
                oneOf(jurisdiction, "basis", top.child("jurisdiction"), EventEnvelope.Jurisdiction.bases, required: true),
            ]),
            object(event, "payload", top, required: true, allowed: nil, members: []),
        ]
        return "coalesce(\n" + SQLText.indent(checks.joined(separator: ",\n")) + ")"
    }

    private static func absentCase(_ member: String, _ path: SQLPath, required: Bool, expected: String) -> String {
        "CASE WHEN \(SQLText.absent(member)) THEN \(required ? path.problem("required field is missing; add \(path.literal ?? ""): \(expected)") : "NULL")"
    }

    static func string(_ object: String, _ key: String, _ parent: SQLPath, pattern: Pattern, required: Bool) -> String {
        let member = SQLText.member(object, key), path = parent.child(key)
        return absentCase(member, path, required: required, expected: pattern.explanation)
            + " WHEN jsonb_typeof(\(member)) <> 'string' OR NOT \(pattern.sql("(\(member)) #>> '{}'"))"
            + " THEN \(path.problem("must be \(pattern.explanation)")) END"
    }

    static func oneOf(_ object: String, _ key: String, _ parent: SQLPath, _ allowed: Set<String>, required: Bool) -> String {
        let member = SQLText.member(object, key), path = parent.child(key)
        let expected = "one of \(allowed.sorted().joined(separator: ", "))"
        return absentCase(member, path, required: required, expected: expected)
            + " WHEN NOT \(SQLText.isStringIn(member, allowed.sorted())) THEN \(path.problem("must be \(expected)")) END"
    }

    static func schemaVersion(_ event: String) -> String {
        let member = SQLText.member(event, "schemaVersion"), path = SQLPath("schemaVersion")
        return "CASE WHEN \(member) IS NULL THEN \(path.problem("required field is missing; add schemaVersion: an integer from 1"))"
            + " WHEN jsonb_typeof(\(member)) <> 'number' OR (\(member))::text !~ '^[1-9][0-9]{0,5}$'"
            + " THEN \(path.problem("must be an integer from 1 to 999999")) END"
    }

    static func timestamp(_ event: String, _ key: String) -> String {
        let member = SQLText.member(event, key), path = SQLPath(key)
        let expected = "an RFC 3339 timestamp with a time zone, such as 2026-11-22T10:15:00Z"
        return "CASE WHEN \(member) IS NULL THEN \(path.problem("required field is missing; add \(key): \(expected)"))"
            + " WHEN jsonb_typeof(\(member)) <> 'string' THEN \(path.problem("must be \(expected)"))"
            + " WHEN NOT ledger.is_rfc3339_timestamp((\(member)) #>> '{}') THEN \(path.problem("must be \(expected)")) END"
    }

    static func object(_ object: String, _ key: String, _ parent: SQLPath, required: Bool, allowed: [String]?, members: [String]) -> String {
        let member = SQLText.member(object, key), path = parent.child(key)
        var inner: [String] = []
        if let allowed {
            inner.append(SQLText.firstUnknownMember(member, allowed: allowed, problem:
                path.memberProblem(sql: "k", "unknown field; allowed: \(allowed.sorted().joined(separator: ", "))")))
        }
        inner += members
        let body = inner.isEmpty ? "NULL" : "coalesce(\n" + SQLText.indent(inner.joined(separator: ",\n"), by: 4) + ")"
        return absentCase(member, path, required: required, expected: "a JSON object")
            + "\n  WHEN jsonb_typeof(\(member)) <> 'object' THEN \(path.problem("must be a JSON object"))\n  ELSE \(body) END"
    }
}
