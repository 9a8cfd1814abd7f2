import LedgerCore
import Testing

/// Shared fixtures for the envelope, record and chain tests: sample events, helpers that edit a
/// JSON object at a path, and a builder for hash-chained `StoredEvent` rows.
enum TestEvents {
    /// An event with every envelope field set (the docs/design/events.md / EventEnvelope doc example).
    static let full: [String: JSONValue] = [
        "eventId": "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f",
        "stream": "subject-p_4f1c",
        "type": "AgeRangeShared",
        "schemaVersion": 1,
        "occurredAt": "2026-11-22T10:15:00Z",
        "subject": "p_4f1c",
        "actor": ["kind": "app", "id": "device:7f3a"],
        "app": ["bundleId": "com.example.kids", "appVersion": "2.3.1", "platform": "iOS", "osVersion": "26.1"],
        "jurisdiction": ["code": "US-TX", "basis": "asserted"],
        "correlationId": "flow-42",
        "causationId": "3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b",
        "payload": ["lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "selfDeclared"],
    ]

    /// The facts the catalogue derives for `full` (AgeRangeShared, lowerBound 13, upperBound 15,
    /// selfDeclared), worked out by hand from LegalCategory's rules: the range [13, 15] does not
    /// fit under13 (15 > 12) and fits 13to15 (13 >= 13, 15 <= 15), so legalCategory is "13to15";
    /// verifiedAdult needs the category adult (and a verifying declaration, which selfDeclared is
    /// not), so it is false.
    static let fullDerived: JSONValue = ["legalCategory": "13to15", "verifiedAdult": false]

    /// `full` as the ledger stores it: with the top-level `derived` member (``fullDerived``).
    static var fullStored: [String: JSONValue] {
        var object = full
        object["derived"] = fullDerived
        return object
    }

    /// `full` with an expected version of 3.
    static var fullWithExpectedVersion: [String: JSONValue] {
        var object = full
        object["expectedVersion"] = 3
        return object
    }

    /// The smallest valid event: only the required fields.
    static let minimal: [String: JSONValue] = [
        "eventId": "3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b",
        "stream": "subject-p_1",
        "type": "AgeRangeDeclined",
        "schemaVersion": 1,
        "occurredAt": "2026-11-22T10:15:00Z",
        "actor": ["kind": "subject"],
        "payload": [:],
    ]

    /// `object` with the value at `path` replaced (or removed when `value` is nil). Intermediate
    /// objects must exist.
    static func setting(_ path: [String], to value: JSONValue?, in object: [String: JSONValue]) -> [String: JSONValue] {
        precondition(!path.isEmpty)
        var copy = object
        if path.count == 1 {
            copy[path[0]] = value
            return copy
        }
        guard case .object(let inner)? = copy[path[0]] else {
            preconditionFailure("no object at \(path[0])")
        }
        copy[path[0]] = .object(setting(Array(path.dropFirst()), to: value, in: inner))
        return copy
    }

    /// `full` with one field changed; `path` is dotted (`actor.kind`).
    static func full(setting path: String, to value: JSONValue?) -> [String: JSONValue] {
        setting(path.split(separator: ".").map(String.init), to: value, in: full)
    }

    /// `full` with `payload` replaced.
    static func full(payload: JSONValue) -> [String: JSONValue] {
        full(setting: "payload", to: payload)
    }

    /// The NDJSON line for an object (canonical bytes, as a client would send them).
    static func line(_ object: [String: JSONValue]) -> [UInt8] {
        CanonicalJSON.encode(.object(object))
    }

    /// The error `EventInput(line:)` throws for `bytes`, or nil when it accepts them.
    static func refusal(line bytes: [UInt8]) -> LedgerError? {
        do {
            _ = try EventInput(line: bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The error `EventInput(line:)` throws for the text, or nil when it accepts it.
    static func refusal(text: String) -> LedgerError? {
        refusal(line: Array(text.utf8))
    }

    /// The error `EventInput` throws for `object` (sent as a line), or nil when it accepts it.
    static func refusal(_ object: [String: JSONValue]) -> LedgerError? {
        refusal(line: line(object))
    }

    /// The error `EventEnvelope(validating:)` throws for `object`, or nil when it accepts it.
    static func envelopeRefusal(_ object: [String: JSONValue]) -> LedgerError? {
        do {
            _ = try EventEnvelope(validating: object)
            return nil
        } catch {
            return error
        }
    }

    /// Lowercase hex of bytes, written independently of `LedgerHash.hex`.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined()
    }

    /// Bytes from a hex string literal.
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        precondition(digits.count % 2 == 0)
        return stride(from: 0, to: digits.count, by: 2).map { i in
            UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16)!
        }
    }
}

/// A valid hash-chained log built in the test, the way `ledger.append_events` builds one.
struct TestChain {
    let log: String
    var rows: [StoredEvent]

    /// The head the log's row would hold.
    var headPosition: Int64 { rows.last?.position ?? 0 }
    var headChainHash: [UInt8] { rows.last?.chainHash ?? LedgerHash.genesis }

    /// `count` events over three streams, positions 1...count.
    init(log: String = "acme", count: Int) {
        self.log = log
        var rows: [StoredEvent] = []
        var previous = LedgerHash.genesis
        var streamVersions: [String: Int64] = [:]
        for index in 1...count {
            let position = Int64(index)
            let stream = "subject-p_\(index % 3)"
            let streamVersion = (streamVersions[stream] ?? 0) + 1
            streamVersions[stream] = streamVersion
            let eventId = Self.eventId(index)
            let type = index % 2 == 0 ? "AgeRangeShared" : "AgeRangeRequested"
            let micros = String(index * 1_001)
            let recordedAt = "2026-11-22T10:15:00." + String(repeating: "0", count: 6 - micros.count) + micros + "Z"
            let event: JSONValue = [
                "eventId": .string(eventId), "stream": .string(stream), "type": .string(type),
                "schemaVersion": 1, "occurredAt": "2026-11-22T10:14:00Z", "actor": ["kind": "app"],
                "payload": ["lowerBound": 13, "upperBound": .number(Double(13 + index % 5))],
            ]
            let record = LedgerRecord(event: event, log: log, position: position, recordedAt: recordedAt,
                                      streamVersion: streamVersion).canonicalBytes
            let leaf = LedgerHash.leaf(record)
            let chain = LedgerHash.chain(previous: previous, leaf: leaf)
            previous = chain
            rows.append(StoredEvent(log: log, position: position, eventId: eventId, stream: stream,
                                    streamVersion: streamVersion, type: type, recordedAt: recordedAt,
                                    record: record, leafHash: leaf, chainHash: chain))
        }
        self.rows = rows
    }

    /// A lowercase UUID that depends on `index`.
    static func eventId(_ index: Int) -> String {
        let tail = String(index, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - tail.count) + tail
    }

    /// Replaces row `position`'s record and recomputes its leaf hash and every chain hash from
    /// there on, so that only the record check or the column check can notice the change.
    mutating func resealing(position: Int64, record: [UInt8]) {
        let index = Int(position) - 1
        rows[index].record = record
        rows[index].leafHash = LedgerHash.leaf(record)
        var previous = index == 0 ? LedgerHash.genesis : rows[index - 1].chainHash
        for i in index..<rows.count {
            rows[i].chainHash = LedgerHash.chain(previous: previous, leaf: rows[i].leafHash)
            previous = rows[i].chainHash
        }
    }

    /// Feeds every row to a fresh verifier; returns the verifier and the first problem.
    func verify(as verifierLog: String? = nil) -> (verifier: ChainVerifier, problem: IntegrityProblem?) {
        var verifier = ChainVerifier(log: verifierLog ?? log)
        for row in rows {
            if let problem = verifier.check(row) { return (verifier, problem) }
        }
        return (verifier, nil)
    }
}

/// Expects `error` to be a refusal with `code` naming `field` (nil: no field).
func expectRefused(_ error: LedgerError?, _ code: LedgerError.Code, field: String?,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else {
        Issue.record("accepted, expected \(code) on \(field ?? "(no field)")", sourceLocation: sourceLocation)
        return
    }
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
}
