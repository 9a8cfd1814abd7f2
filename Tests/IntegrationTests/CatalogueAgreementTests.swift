import Foundation
import LedgerCore
import LedgerPostgres
import LedgerSimulation
import PostgresNIO
import Testing

/// The catalogue the database enforces (sql/generated/) and the Swift catalogue agree: over
/// simulated events and mutations of them, `ledger.append_events` accepts exactly the events the
/// Swift path accepts (decision 0035), and computes the same derived facts.
@Suite("The catalogue in SQL agrees with Swift")
struct CatalogueAgreementTests {
    /// Values a mutation puts in place of another.
    static let pool: [JSONValue] = [
        .string("x"), .string(""), .string("2026-11-22"), .string("2026-11-22T10:15:00Z"), .string("2026-02-30T10:15:00Z"),
        .string("com.example.kids"), .string("p_1"), .string("confirmed"), .string("VERIFIED"), .string("passed"),
        .number(0), .number(1), .number(2), .number(13), .number(18), .number(-1), .number(2.5), .number(313), .number(1e7),
        .bool(true), .bool(false), .null, .array([]), .array([.number(13), .number(16)]), .array([.string("x")]), .object([:]),
        .object(["$sealed": .string("v1.AAAA")]),
    ]
    /// Member names a mutation adds.
    static let names = ["extra", "$sealed", "birthDate", "Age", "age_years", "lowerBound", "upperBound", "kind", "id", "payload"]
    static let envelopeNames = ["eventId", "stream", "type", "schemaVersion", "occurredAt", "subject", "actor", "app",
                                "jurisdiction", "correlationId", "causationId", "payload"]

    /// One random change to `event`, and what it was.
    static func mutate(_ event: [String: JSONValue], _ random: inout SeededGenerator) -> ([String: JSONValue], String) {
        var event = event
        func any() -> JSONValue { pool.randomElement(using: &random)! }
        func changeInside(_ value: JSONValue, depth: Int) -> (JSONValue, String) {
            switch value {
            case .object(var members) where !members.isEmpty || depth == 0:
                let keys = members.keys.sorted()
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !keys.isEmpty:
                    let key = keys.randomElement(using: &random)!
                    members.removeValue(forKey: key)
                    return (.object(members), "removed \(key)")
                case 1:
                    let key = names.randomElement(using: &random)!
                    let value = any()
                    members[key] = value
                    return (.object(members), "set \(key) to \(CanonicalJSON.encodeString(value))")
                case 2 where !keys.isEmpty:
                    let key = keys.randomElement(using: &random)!
                    let (inner, what) = changeInside(members[key]!, depth: depth + 1)
                    members[key] = inner
                    return (.object(members), "\(key): \(what)")
                default:
                    guard let key = keys.randomElement(using: &random) else { return (value, "nothing") }
                    let value = any()
                    members[key] = value
                    return (.object(members), "set \(key) to \(CanonicalJSON.encodeString(value))")
                }
            case .array(var elements) where !elements.isEmpty:
                let index = Int.random(in: 0..<elements.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: elements.remove(at: index); return (.array(elements), "removed [\(index)]")
                case 1: elements.append(elements[index]); return (.array(elements), "repeated [\(index)]")
                default:
                    let (inner, what) = changeInside(elements[index], depth: depth + 1)
                    elements[index] = inner
                    return (.array(elements), "[\(index)]: \(what)")
                }
            default:
                let replacement = any()
                return (replacement, "replaced by \(CanonicalJSON.encodeString(replacement))")
            }
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3:
            let (payload, what) = changeInside(event["payload"] ?? .object([:]), depth: 0)
            event["payload"] = payload
            return (event, "payload: " + what)
        case 4:
            let type = EventCatalogue.eventTypes.randomElement(using: &random)!
            event["type"] = .string(type)
            return (event, "type \(type)")
        case 5:
            let version = Int.random(in: 1...3, using: &random)
            event["schemaVersion"] = .number(Double(version))
            return (event, "schemaVersion \(version)")
        case 6:
            let key = envelopeNames.randomElement(using: &random)!
            event.removeValue(forKey: key)
            return (event, "removed \(key)")
        default:
            let key = envelopeNames.randomElement(using: &random)!
            let (inner, what) = changeInside(event[key] ?? .null, depth: 1)
            event[key] = inner
            return (event, "\(key): \(what)")
        }
    }

    /// What the Swift path makes of `event`: the text it sends to `append_events`, or `nil` when it refuses.
    static func swiftPath(_ event: JSONValue, key: [UInt8]) -> String? {
        guard let input = try? EventInput(json: event) else { return nil }
        let paths = input.catalogued.personalFields
        if paths.isEmpty { return input.canonicalText }
        // EventStore.sealPersonalData: personal data is sealed under the subject's key, and needs a subject.
        return (try? input.sealing(paths: paths, key: key, log: "agree"))?.canonicalText
    }

    @Test("append_events accepts exactly what the Swift path accepts, over simulated events and their mutations")
    func acceptsWhatSwiftAccepts() async throws {
        var originals: [[String: JSONValue]] = []
        try HistorySimulator(families: 12, days: 40, seed: 17).forEach { line in
            guard case .object(var members) = try JSONParser.parse(Array(line.utf8)) else { return }
            members.removeValue(forKey: "expectedVersion")
            originals.append(members)
        }
        var random = SeededGenerator(seed: 29)
        var cases: [(event: [String: JSONValue], what: String)] = []
        for original in originals {
            cases.append((original, "as simulated"))
            for _ in 0..<3 { cases.append(Self.mutate(original, &random)) }
        }
        let key = [UInt8](repeating: 7, count: 32)
        let db = try await TestDatabase.create()
        var disagreements: [String] = []
        var accepted = 0
        try await db.as(.application) { client async throws in
            for (index, testCase) in cases.enumerated() {
                var event = testCase.event
                if case .string? = event["eventId"], !testCase.what.contains("eventId") {
                    event["eventId"] = .string(UUID().uuidString.lowercased())
                }
                let swift = Self.swiftPath(.object(event), key: key)
                let body = swift ?? CanonicalJSON.encodeString(.object(event))
                var sqlRefusal: String?
                do {
                    _ = try await client.raw("SELECT * FROM ledger.append_events('agree', ARRAY[\(body)])")
                } catch let error as PSQLError {
                    sqlRefusal = "\(error.serverInfo?[.sqlState] ?? "?") \(error.serverInfo?[.message] ?? "")"
                }
                if swift != nil { accepted += 1 }
                if (swift == nil) != (sqlRefusal != nil) {
                    disagreements.append("case \(index) (\(testCase.what)): Swift \(swift == nil ? "refuses" : "accepts"), "
                                         + "SQL \(sqlRefusal ?? "accepts"): \(body)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(cases.count) disagree:\n\(disagreements.prefix(12).joined(separator: "\n"))")
        // Both verdicts occur often, or the comparison would prove little.
        #expect(accepted > cases.count / 4)
        #expect(cases.count - accepted > cases.count / 4)
    }

    /// Random payloads of the types that derive facts, valid in Swift, each with Swift's facts.
    static func derivingPayloads(_ random: inout SeededGenerator) -> [(type: String, version: Int, jurisdiction: String?, payload: JSONValue, facts: String?)] {
        var out: [(String, Int, String?, JSONValue, String?)] = []
        // The age of majority comes from the envelope's jurisdiction: 18, and each exception (19, 21), exact or by country.
        let jurisdictions: [String?] = [nil, "US-TX", "GB", "US-AL", "US-NE", "US-MS", "US-PR", "PR", "PR-XX"]
        func value(of kind: FieldKind) -> JSONValue {
            switch kind {
            case .integer(let range): return .number(Double(Int.random(in: range.lowerBound...min(range.upperBound, range.lowerBound + 40), using: &random)))
            case .code(let codes): return .number(Double(codes.randomElement(using: &random)!.code))
            case .oneOf(let values): return .string(values.randomElement(using: &random)!.name)
            case .boolean: return .bool(Bool.random(using: &random))
            default: return .null
            }
        }
        for schema in EventCatalogue.schemas where !schema.derived.isEmpty {
            for version in schema.schemaVersions {
                let fields = schema.fields(version: version) ?? []
                let read = Set(schema.derived.flatMap(\.computation.fieldsRead))
                let base: [String: JSONValue]
                if version == schema.version, case .object(let members) = schema.example { base = members }
                else { base = [:] }
                for _ in 0..<150 {
                    var payload = base
                    for field in fields where read.contains(field.name) {
                        if !field.isRequired, Int.random(in: 0..<4, using: &random) == 0 { payload.removeValue(forKey: field.name) }
                        else { payload[field.name] = value(of: field.kind) }
                    }
                    let jurisdiction = jurisdictions.randomElement(using: &random)!
                    guard let checked = try? EventCatalogue.validate(type: schema.type, schemaVersion: version, payload: .object(payload),
                                                                     context: DerivationContext(jurisdiction: jurisdiction))
                    else { continue }
                    out.append((schema.type, version, jurisdiction, .object(payload),
                                checked.derived.isEmpty ? nil : CanonicalJSON.encodeString(.object(checked.derived))))
                }
            }
        }
        return out
    }

    @Test("ledger.derived_facts computes what the Swift payload types derive")
    func derivedFactsAgree() async throws {
        var random = SeededGenerator(seed: 31)
        let payloads = Self.derivingPayloads(&random)
        #expect(payloads.count > 500)
        let events = payloads.map { p in
            var event: [String: JSONValue] = ["type": .string(p.type), "schemaVersion": .number(Double(p.version)), "payload": p.payload]
            if let code = p.jurisdiction { event["jurisdiction"] = .object(["code": .string(code), "basis": .string("asserted")]) }
            return CanonicalJSON.encodeString(.object(event))
        }
        let db = try await TestDatabase.create()
        let computed: [String?] = try await db.as(.administrator) { client async throws in
            var out: [String?] = []
            let rows = try await client.query("SELECT ledger.derived_facts(u.e::jsonb) FROM unnest(\(events)::text[]) WITH ORDINALITY AS u(e, i) ORDER BY u.i")
            for try await value in rows.decode(String?.self) { out.append(value) }
            return out
        }
        #expect(computed.count == payloads.count)
        let differing = zip(payloads, computed).filter { $0.0.facts != $0.1 }
            .map { "\($0.0.type) v\($0.0.version) in \($0.0.jurisdiction ?? "none") \(CanonicalJSON.encodeString($0.0.payload)): Swift \($0.0.facts ?? "none"), SQL \($0.1 ?? "none")" }
        #expect(differing.isEmpty, "\(differing.count) differ:\n\(differing.prefix(10).joined(separator: "\n"))")
    }

    @Test("the SQL timestamp and date checks agree with Swift's over many strings")
    func timestampsAgree() async throws {
        var random = SeededGenerator(seed: 37)
        let seeds = ["2026-11-22T10:15:00Z", "2024-02-29T23:59:60.123456789+01:00", "2023-02-28T00:00:00-23:59", "0001-01-01T00:00:00Z",
                     "2026-04-30T12:00:00.5Z", "2026-11-22", "2024-02-29", "2026-12-31"]
        let characters = Array("0123456789-:TZtz.+ 9")
        var strings = seeds
        for seed in seeds {
            for _ in 0..<120 {
                var text = Array(seed)
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let index = Int.random(in: 0..<text.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: text[index] = characters.randomElement(using: &random)!
                    case 1: text.remove(at: index)
                    default: text.insert(characters.randomElement(using: &random)!, at: index)
                    }
                    if text.isEmpty { break }
                }
                strings.append(String(text))
            }
        }
        let db = try await TestDatabase.create()
        let verdicts: [(Bool, Bool)] = try await db.as(.administrator) { client async throws in
            var out: [(Bool, Bool)] = []
            let rows = try await client.query(
                "SELECT ledger.is_rfc3339_timestamp(u.s), ledger.is_rfc3339_date(u.s) FROM unnest(\(strings)::text[]) WITH ORDINALITY AS u(s, i) ORDER BY u.i")
            for try await (timestamp, date) in rows.decode((Bool, Bool).self) { out.append((timestamp, date)) }
            return out
        }
        #expect(verdicts.count == strings.count)
        var differing: [String] = []
        for (text, verdict) in zip(strings, verdicts) {
            if verdict.0 != RFC3339.isValidDateTime(text) { differing.append("timestamp \(text)") }
            if verdict.1 != TokenFormat.date.matches(text) { differing.append("date \(text)") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        #expect(strings.filter(RFC3339.isValidDateTime).count > 20)
    }
}
