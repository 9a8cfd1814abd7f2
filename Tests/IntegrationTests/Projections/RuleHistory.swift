import Foundation
import LedgerCore
import LedgerPostgres

/// A hand-written history for one rule of the rules catalogue: events built from the catalogue's
/// example payloads with the fields a case needs changed, on their home streams, with an app and a
/// jurisdiction, appended as one batch to their own log. Event ids are numbered by position, so a
/// test names its evidence as the positions it wrote.
struct RuleHistory {
    let log: String
    /// The envelope's jurisdiction code of every event.
    let jurisdiction: String
    /// The envelope's `app.environment` of the events added from now on; nil: not said.
    var environment: String?
    /// The envelope's `app.originalAppVersion` of the events added from now on; nil: not said.
    var originalAppVersion: String?
    private(set) var lines: [String] = []

    static let app = "com.example.kidsdraw"
    static let change = "c-rooms"
    static let rooms = "Rooms: draw together with friends."

    init(log: String, jurisdiction: String = "US-TX") {
        self.log = log
        self.jurisdiction = jurisdiction
    }

    /// The event id of position `n` of this history's log.
    func id(_ n: Int) -> String {
        let tag = log.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) % 1_000_000 }
        return String(format: "e%07d-0000-4000-8000-%012d", tag, n)
    }

    /// Adds an event of `type` (the catalogue example with `changes`; `.null` removes a member) and returns its position.
    @discardableResult
    mutating func add(_ type: String, at time: String, subject: String? = "p_k", version: String = "3.0.0",
                      _ changes: [String: JSONValue] = [:]) -> Int {
        let schema = EventCatalogue.schema(for: type)!
        guard case .object(var payload) = schema.example else { fatalError("example is not an object") }
        for (key, value) in changes {
            if value == .null { payload[key] = nil } else { payload[key] = value }
        }
        let stream: String
        if let home = StreamConvention.homes[type], let key = payload[home.field]?.stringValue {
            stream = home.prefix + key
        } else {
            stream = "subject-\(subject ?? "none")"
        }
        var event: [String: JSONValue] = [
            "eventId": .string(id(lines.count + 1)), "stream": .string(stream), "type": .string(type),
            "schemaVersion": .number(Double(schema.version)), "occurredAt": .string(time),
            "actor": ["kind": "app"], "payload": .object(payload),
            "app": ["bundleId": .string(Self.app), "appVersion": .string(version), "platform": "iOS", "osVersion": "26.1"],
        ]
        if let environment, case .object(var app) = event["app"] {
            app["environment"] = .string(environment)
            event["app"] = .object(app)
        }
        if let originalAppVersion, case .object(var app) = event["app"] {
            app["originalAppVersion"] = .string(originalAppVersion)
            event["app"] = .object(app)
        }
        if let subject { event["subject"] = .string(subject) }
        event["jurisdiction"] = ["code": .string(jurisdiction), "basis": "asserted"]
        lines.append(CanonicalJSON.encodeString(.object(event)))
        return lines.count
    }

    // The events the cases share.

    /// An age range (at version 2.9.0 unless said) with the given parental controls and declaration.
    @discardableResult
    mutating func ageRange(_ lower: Int?, _ upper: Int?, at time: String, controls: [String] = ["communicationLimits"],
                           declaration: String = "guardianDeclared", subject: String = "p_k", version: String = "2.9.0") -> Int {
        add("AgeRangeShared", at: time, subject: subject, version: version, [
            "lowerBound": lower.map { .number(Double($0)) } ?? .null, "upperBound": upper.map { .number(Double($0)) } ?? .null,
            "activeParentalControls": .array(controls.map(JSONValue.string)), "ageRangeDeclaration": .string(declaration)])
    }

    /// An age check of the app's own (`appAgeGate`, no provider) or by a third party
    /// (AgeVerificationCompleted), at version 2.9.0 unless said.
    @discardableResult
    mutating func ageCheck(_ method: String, _ lower: Int?, _ upper: Int?, outcome: String = "passed", at time: String,
                           subject: String = "p_k", version: String = "2.9.0") -> Int {
        add("AgeVerificationCompleted", at: time, subject: subject, version: version, [
            "method": .string(method), "outcome": .string(outcome),
            "provider": method == "appAgeGate" ? .null : "example-verifier",
            "lowerBound": lower.map { .number(Double($0)) } ?? .null, "upperBound": upper.map { .number(Double($0)) } ?? .null])
    }

    /// DeclaredAgeRange's answer for the subject: eligible, with `features` required. By default
    /// at version 2.9.0: the subject had the app before the change of 3.0.0.
    @discardableResult
    mutating func eligibility(_ features: [String], at time: String, subject: String = "p_k", version: String = "2.9.0") -> Int {
        add("EligibilityChecked", at: time, subject: subject, version: version,
            ["isEligibleForAgeFeatures": true, "requiredRegulatoryFeatures": .array(features.map(JSONValue.string))])
    }

    /// The app's significant change c-rooms, introduced in `version`.
    @discardableResult
    mutating func declareChange(at time: String, version: String = "3.0.0", description: String = RuleHistory.rooms) -> Int {
        add("SignificantChangeDeclared", at: time, subject: nil,
            ["changeId": .string(Self.change), "introducedInVersion": .string(version), "description": .string(description)])
    }

    /// A question about c-rooms, and the parent's `answer` to it an hour later.
    @discardableResult
    mutating func askAndAnswer(_ answer: String, question: String, at time: String, answeredAt: String, subject: String = "p_k") -> Int {
        add("PermissionQuestionSent", at: time, subject: subject, ["questionId": .string(question), "changeId": .string(Self.change)])
        return add("ParentalAnswerReceived", at: answeredAt, subject: subject,
                   ["questionId": .string(question), "answer": .string(answer), "receivedAt": .string(answeredAt)])
    }

    /// The app opening `feature` for the subject, citing `basis` (event ids).
    @discardableResult
    mutating func open(_ feature: String = "rooms", at time: String, basis: [String], subject: String = "p_k") -> Int {
        add("AccessGateApplied", at: time, subject: subject,
            ["feature": .string(feature), "state": "open", "basis": .array(basis.map(JSONValue.string))])
    }

    /// A 13-15 subject opening rooms while change c-rooms is in force: 1 the change, 2 DeclaredAgeRange
    /// requiring `requirement`, 3 the age range with the device's `controls`, 4 the opening citing it.
    /// `version`: the app version the subject was seen at before the opening.
    static func openingAfterChange(log: String, requirement: String, controls: [String] = ["communicationLimits"],
                                   version: String = "2.9.0", original: String? = nil) -> RuleHistory {
        var history = RuleHistory(log: log)
        history.originalAppVersion = original
        history.declareChange(at: "2026-10-01T08:00:00Z")
        history.eligibility([requirement], at: "2026-10-02T09:00:00Z", version: version)
        history.ageRange(13, 15, at: "2026-10-02T09:00:05Z", controls: controls, version: version)
        history.open(at: "2026-10-02T11:00:00Z", basis: [history.id(3)])
        return history
    }

    /// A 13-15 subject's rooms opened (2), consent rescinded for the app (3), and rooms closed 26
    /// hours after the rescission (4): late for a 24-hour window, in time for 48.
    static func lateClosing(log: String) -> RuleHistory {
        var h = RuleHistory(log: log)
        h.ageRange(13, 15, at: "2026-10-02T09:00:05Z")
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(1)])
        h.add("ConsentRescinded", at: "2026-10-03T09:00:00Z", ["bundleId": .string(RuleHistory.app)])
        h.add("AccessGateApplied", at: "2026-10-04T11:00:00Z",
              ["feature": "rooms", "state": "closed", "basis": .array([.string(h.id(3))])])
        return h
    }

    /// Appends the history to its log, one batch.
    func append(_ db: TestDatabase) async throws {
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: log, events: try lines.map { try EventInput(line: Array($0.utf8)) })
        }
    }
}
