import Foundation
import LedgerCore

/// Builds valid events for tests.
enum Fixtures {
    /// One valid event as an NDJSON line.
    static func line(id: String = UUID().uuidString.lowercased(), stream: String = "subject-p_1", type: String = "AgeRangeShared",
                     expected: String? = nil, payload: String = #"{"lowerBound":13,"upperBound":15}"#) -> String {
        let condition = expected.map { #","expectedVersion":\#($0)"# } ?? ""
        return #"{"eventId":"\#(id)","stream":"\#(stream)","type":"\#(type)","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","actor":{"kind":"app"},"app":{"bundleId":"com.example.kids","platform":"iOS"},"payload":\#(payload)\#(condition)}"#
    }

    /// One valid event.
    static func event(stream: String = "subject-p_1", expected: ExpectedVersion = .any, type: String = "AgeRangeShared") throws -> EventInput {
        let condition: String
        switch expected {
        case .any: condition = #""any""#
        case .noStream: condition = #""noStream""#
        case .exact(let n): condition = String(n)
        }
        return try EventInput(line: Array(line(stream: stream, type: type, expected: condition).utf8))
    }

    /// `count` valid events on `streams` streams.
    static func events(_ count: Int, streams: Int = 3) throws -> [EventInput] {
        try (0..<count).map { try event(stream: "subject-p_\($0 % streams)") }
    }
}
