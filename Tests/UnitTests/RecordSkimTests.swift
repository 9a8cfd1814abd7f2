import LedgerCore
import LedgerSimulation
import Testing

/// `RecordSkim`: it recognises every record the ledger writes (so `verify` takes its fast path for
/// them), finds the same values a full parse finds, and never recognises bytes that are not a
/// canonical record of the ledger's shape (so the fast path cannot pass a bad record).
@Suite("RecordSkim")
struct RecordSkimTests {
    /// Records as the ledger builds them from a simulated history (escapes-free, with non-ASCII
    /// text such as "Don’t Allow", nested arrays and objects, optional members).
    static let records: [[UInt8]] = {
        let simulator = try! HistorySimulator(families: 20, days: 20, seed: 19)
        var records: [[UInt8]] = []
        var position: Int64 = 0
        for line in simulator.lines() {
            position += 1
            let event = try! JSONParser.parse(line)
            guard case .object(var members) = event else { continue }
            members["expectedVersion"] = nil
            records.append(LedgerRecord(event: .object(members), log: "sim", position: position,
                                        recordedAt: "2026-11-26T23:38:00.299424Z", streamVersion: position % 40 + 1).canonicalBytes)
        }
        return records
    }()

    /// The value the skim located, as text, or nil when absent.
    static func text(_ record: [UInt8], _ field: RecordSkim.Field) -> String? {
        field.kind == .absent ? nil : String(decoding: record[field.range], as: UTF8.self)
    }

    /// The value a full parse finds at `path`, as the skim would show it (a string's content, a
    /// number's digits, `null`), or nil when absent.
    static func parsed(_ value: JSONValue, _ path: [String]) -> String? {
        var current = value
        for key in path {
            guard case .object(let members) = current, let next = members[key] else { return nil }
            current = next
        }
        switch current {
        case .string(let text): return text
        case .number(let number): return String(Int64(number))
        case .null: return "null"
        default: return String(decoding: CanonicalJSON.encode(current), as: UTF8.self)
        }
    }

    static var paths: [(KeyPath<RecordSkim, RecordSkim.Field>, [String])] { [
        (\.log, ["log"]), (\.position, ["position"]), (\.recordedAt, ["recordedAt"]), (\.streamVersion, ["streamVersion"]),
        (\.eventId, ["event", "eventId"]), (\.stream, ["event", "stream"]), (\.type, ["event", "type"]),
        (\.schemaVersion, ["event", "schemaVersion"]), (\.occurredAt, ["event", "occurredAt"]), (\.subject, ["event", "subject"]),
        (\.actorKind, ["event", "actor", "kind"]), (\.actorId, ["event", "actor", "id"]),
        (\.correlationId, ["event", "correlationId"]), (\.causationId, ["event", "causationId"]),
    ] }

    @Test("every record of a simulated history is recognised, and each value found is the parse's")
    func simulatedRecords() throws {
        #expect(Self.records.count > 300)
        #expect(Self.records.contains { $0.contains(0xE2) }, "the history has non-ASCII text")
        for record in Self.records {
            let skim = try #require(RecordSkim(record), "\(String(decoding: record, as: UTF8.self))")
            let value = try JSONParser.parse(record)
            for (field, path) in Self.paths {
                #expect(Self.text(record, skim[keyPath: field]) == Self.parsed(value, path), "\(path)")
            }
        }
    }

    @Test("bytes that are not a canonical record of the ledger's shape are left to the full parse", arguments: [
        #"{"event":{"actor":{"kind":"app"}},"log":"a","position":1,"recordedAt":"x","streamVersion":1} "#,
        #"{"event":{"actor":{"kind":"app"}}, "log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"a":1},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"b":1,"b":2},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"a\"pp"}},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"n":1.5},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"n":-0},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"n":01},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"n":1e3},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"n":1234567890123456},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"é":1},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"type":"x"},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":[],"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"}},"log":"a","position":"1","recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"}},"log":"a","position":1,"recordedAt":"x","streamVersion":1,"z":1}"#,
        #"{"event":{"actor":{"kind":"app"}},"log":"a","position":1,"recordedAt":"x"}"#,
        #"{"event":{"actor":{"kind":"app"},"t":tru},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
        #"{"event":{"actor":{"kind":"app"},"a":[1,]},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#,
    ])
    func refused(_ text: String) {
        #expect(RecordSkim(Array(text.utf8)) == nil)
    }

    @Test("invalid UTF-8, control characters and escapes inside strings are left to the full parse")
    func refusedBytes() {
        let base = Array(#"{"event":{"actor":{"kind":"app"},"note":"ab__cd"},"log":"a","position":1,"recordedAt":"x","streamVersion":1}"#.utf8)
        let at = base.firstIndex(of: UInt8(ascii: "_"))!
        #expect(RecordSkim(base) != nil)
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0], [0xE2, 0x80], [0xFF, 0x41], [0x0A, 0x41], [0x5C, 0x6E], [0xF4, 0x90]] {
            var record = base
            record.replaceSubrange(at..<(at + 2), with: bad)
            #expect(RecordSkim(record) == nil, "\(bad)")
        }
        var good = base
        good.replaceSubrange(at..<(at + 2), with: [0xC3, 0xA9])  // é
        #expect(RecordSkim(good) != nil)
    }

    @Test("a recognised record is always canonical JSON and its values are the parse's, over 20,000 mutated records")
    func soundUnderMutation() throws {
        var random = SplitMix64(seed: 43)
        var recognised = 0
        for round in 0..<20_000 {
            var record = Self.records[round % Self.records.count]
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(record.count))
                let byte = Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
                switch random.next() % 3 {
                case 0: record[at] = byte
                case 1: record.insert(byte, at: at)
                default: record.remove(at: at)
                }
            }
            guard let skim = RecordSkim(record) else { continue }
            recognised += 1
            let value = try JSONParser.parse(record)
            #expect(CanonicalJSON.encode(value) == record, "\(String(decoding: record, as: UTF8.self))")
            for (field, path) in Self.paths {
                #expect(Self.text(record, skim[keyPath: field]) == Self.parsed(value, path), "\(path)")
            }
        }
        #expect(recognised > 1_000, "enough mutants stay recognisable for the property to say something")
    }

    /// Bytes the mutations draw from: JSON's punctuation, digits, letters, and the troublesome.
    static let alphabet = Array(#"{}[]:,"\ -.0123456789eEabcz"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0xED, 0xF4, 0xFF]
}
