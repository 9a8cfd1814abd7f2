#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One pass over a stored record that, when the record is in the form the ledger writes, finds the
/// values `verify` compares with the event's columns without building a JSON tree (issue 19:
/// verify at the speed of the hash).
///
/// The form it decides on its own: RFC 8785 canonical JSON whose strings are valid UTF-8 without
/// escapes or control characters (keys ASCII only) and whose numbers are integers of at most 15
/// digits, with the record's five
/// members in order (`{"event":{…},"log":…,"position":…,"recordedAt":…,"streamVersion":…}`), every
/// object's keys strictly ascending, and an `actor` object in the event. Such a record is valid
/// JSON, is canonical, and is the object the ledger writes. Anything else (whitespace, an escape, a
/// non-ASCII key, a fraction or exponent, keys out of order, invalid JSON) gives `nil`: the caller
/// then takes the slow path, the full parse (``LedgerRecord/init(parsing:)``) and the database's
/// own column rule. The skim never decides that something is wrong; it only recognises what is
/// certainly right, so a mistake in it can cost time but cannot pass a bad record.
public struct RecordSkim: Sendable, Equatable {
    /// Where a member's value is in the record.
    public struct Field: Sendable, Equatable {
        /// What the value is.
        public enum Kind: UInt8, Sendable {
            /// The member is not there.
            case absent
            /// A string: ``range`` is its content, without the quotes (no escapes in it).
            case string
            /// An integer: ``range`` is its digits (with a leading `-` when negative).
            case integer
            /// `null`.
            case null
            /// Anything else (an object, an array, `true`, `false`).
            case other
        }

        /// What the value is.
        public var kind: Kind
        /// Its bytes in the record (empty when absent).
        public var range: Range<Int>

        static let absent = Field(kind: .absent, range: 0..<0)
    }

    /// The record's `log`.
    public var log = Field.absent
    /// The record's `position`.
    public var position = Field.absent
    /// The record's `recordedAt`.
    public var recordedAt = Field.absent
    /// The record's `streamVersion`.
    public var streamVersion = Field.absent
    /// `event.eventId`.
    public var eventId = Field.absent
    /// `event.stream`.
    public var stream = Field.absent
    /// `event.type`.
    public var type = Field.absent
    /// `event.schemaVersion`.
    public var schemaVersion = Field.absent
    /// `event.occurredAt`.
    public var occurredAt = Field.absent
    /// `event.subject`.
    public var subject = Field.absent
    /// `event.actor.kind`.
    public var actorKind = Field.absent
    /// `event.actor.id`.
    public var actorId = Field.absent
    /// `event.correlationId`.
    public var correlationId = Field.absent
    /// `event.causationId`.
    public var causationId = Field.absent

    /// Skims `record`; nil when it is not in the form described above.
    public init?(_ record: UnsafeRawBufferPointer) {
        guard let base = record.baseAddress else { return nil }
        var scanner = Scanner(bytes: base.assumingMemoryBound(to: UInt8.self), count: record.count)
        guard scanner.literal(Self.eventKey), scanner.event(into: &self),
              scanner.literal(Self.logKey), let log = scanner.string(),
              scanner.literal(Self.positionKey), let position = scanner.integer(),
              scanner.literal(Self.recordedAtKey), let recordedAt = scanner.string(),
              scanner.literal(Self.streamVersionKey), let streamVersion = scanner.integer(),
              scanner.literal(Self.end), scanner.index == scanner.count
        else { return nil }
        self.log = Field(kind: .string, range: log)
        self.position = Field(kind: .integer, range: position)
        self.recordedAt = Field(kind: .string, range: recordedAt)
        self.streamVersion = Field(kind: .integer, range: streamVersion)
    }

    /// Skims `record`; nil when it is not in the form described above.
    public init?(_ record: [UInt8]) {
        guard let skim = record.withUnsafeBytes({ RecordSkim($0) }) else { return nil }
        self = skim
    }

    private init() {}

    static let eventKey = Array(#"{"event":"#.utf8)
    static let logKey = Array(#","log":"#.utf8)
    static let positionKey = Array(#","position":"#.utf8)
    static let recordedAtKey = Array(#","recordedAt":"#.utf8)
    static let streamVersionKey = Array(#","streamVersion":"#.utf8)
    static let end = Array("}".utf8)
}

/// The byte-level reader behind ``RecordSkim``: every method returns nil or false when the bytes
/// leave the recognised form, and then nothing more is read.
private struct Scanner {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    var index = 0

    static let maximumDepth = 32

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Consumes `expected` exactly.
    mutating func literal(_ expected: [UInt8]) -> Bool {
        guard count - index >= expected.count else { return false }
        for byte in expected {
            guard bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// A string without escapes or control characters, in valid UTF-8 (only ASCII for a key, so
    /// that byte order is RFC 8785's order of UTF-16 code units); returns its content's range.
    mutating func string(asciiOnly: Bool = false) -> Range<Int>? {
        guard index < count, bytes[index] == Self.quote else { return nil }
        let start = index + 1
        var at = start
        while at < count {
            // Eight bytes at a time while none of them needs a look of its own (a quote, a
            // backslash, a control character or a byte of a multi-byte sequence).
            while count - at >= 8, !Self.needsLook(UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self)) { at += 8 }
            guard at < count else { break }
            let byte = bytes[at]
            if byte == Self.quote {
                index = at + 1
                return start..<at
            }
            if byte < 0x80 {
                guard byte >= 0x20, byte != Self.backslash else { return nil }
                at += 1
            } else {
                guard !asciiOnly, let length = utf8Sequence(at) else { return nil }
                at += length
            }
        }
        return nil
    }

    /// Whether any of the eight bytes of `word` is `"`, `\\`, below 0x20 or above 0x7F (exact:
    /// the usual "has a zero byte" and "has a byte less than n" bit tricks).
    @inline(__always)
    private static func needsLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        return (control | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C)) | (word & highs)) != 0
    }

    /// The length of the valid UTF-8 sequence of two to four bytes at `at` (no overlong form, no
    /// surrogate, nothing above U+10FFFF), or nil.
    private func utf8Sequence(_ at: Int) -> Int? {
        let lead = bytes[at]
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            at + offset < count && bytes[at + offset] >= low && bytes[at + offset] <= high
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : nil
        case 0xE0:
            return continuation(1, 0xA0) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : nil
        case 0xED:
            return continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : nil
        case 0xF0:
            return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4:
            return continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default:
            return nil
        }
    }

    /// An integer in canonical form (no leading zero, not `-0`), at most 15 digits.
    mutating func integer() -> Range<Int>? {
        let start = index
        var at = index
        if at < count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        let firstDigit = at
        while at < count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") { at += 1 }
        let digits = at - firstDigit
        guard digits >= 1, digits <= 15 else { return nil }
        if bytes[firstDigit] == UInt8(ascii: "0") {
            guard digits == 1, firstDigit == start else { return nil }  // a leading zero, or -0
        }
        if at < count {
            let next = bytes[at]
            guard next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") else { return nil }
        }
        index = at
        return start..<at
    }

    /// Any value in the form; returns what it is and where.
    mutating func value(depth: Int) -> RecordSkim.Field? {
        guard index < count, depth <= Self.maximumDepth else { return nil }
        let start = index
        switch bytes[index] {
        case Self.quote:
            guard let range = string() else { return nil }
            return RecordSkim.Field(kind: .string, range: range)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let range = integer() else { return nil }
            return RecordSkim.Field(kind: .integer, range: range)
        case UInt8(ascii: "{"):
            guard object(depth: depth + 1) else { return nil }
        case UInt8(ascii: "["):
            guard array(depth: depth + 1) else { return nil }
        case UInt8(ascii: "t"):
            guard word("true") else { return nil }
        case UInt8(ascii: "f"):
            guard word("false") else { return nil }
        case UInt8(ascii: "n"):
            guard word("null") else { return nil }
            return RecordSkim.Field(kind: .null, range: start..<index)
        default:
            return nil
        }
        return RecordSkim.Field(kind: .other, range: start..<index)
    }

    private mutating func word(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard count - index >= length else { return false }
        let expected = text.utf8Start
        for offset in 0..<length where bytes[index + offset] != expected[offset] { return false }
        index += length
        return true
    }

    private mutating func array(depth: Int) -> Bool {
        index += 1
        guard index < count else { return false }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            guard value(depth: depth) != nil, index < count else { return false }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: "]") { return true }
            guard next == UInt8(ascii: ",") else { return false }
        }
    }

    /// Opens an object: consumes `{`; true when it is empty (and then consumes `}` too).
    private mutating func open() -> Bool? {
        guard index < count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        guard index < count else { return nil }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        return false
    }

    /// The next key of an object, after the one before (keys must be strictly ascending), with
    /// its `:` consumed.
    private mutating func key(after previous: Range<Int>?) -> Range<Int>? {
        guard let key = string(asciiOnly: true), index < count, bytes[index] == UInt8(ascii: ":") else { return nil }
        if let previous, !ascending(previous, key) { return nil }
        index += 1
        return key
    }

    /// After a member's value: `,` (more follow: true) or `}` (the object ends: false).
    private mutating func more() -> Bool? {
        guard index < count else { return nil }
        let next = bytes[index]
        index += 1
        if next == UInt8(ascii: ",") { return true }
        return next == UInt8(ascii: "}") ? false : nil
    }

    private mutating func object(depth: Int) -> Bool {
        guard let empty = open() else { return false }
        if empty { return true }
        var previous: Range<Int>?
        while true {
            guard let key = key(after: previous), value(depth: depth) != nil, let more = more() else { return false }
            if !more { return true }
            previous = key
        }
    }

    /// The event object, noting the members `verify` compares.
    mutating func event(into skim: inout RecordSkim) -> Bool {
        guard let empty = open(), !empty else { return false }
        var previous: Range<Int>?
        var sawActor = false
        while true {
            guard let key = key(after: previous) else { return false }
            let name = name(key)
            if name == .actor {
                guard actor(into: &skim) else { return false }
                sawActor = true
            } else {
                guard let field = value(depth: 1) else { return false }
                switch name {
                case .causationId: skim.causationId = field
                case .correlationId: skim.correlationId = field
                case .eventId: skim.eventId = field
                case .occurredAt: skim.occurredAt = field
                case .schemaVersion: skim.schemaVersion = field
                case .stream: skim.stream = field
                case .subject: skim.subject = field
                case .type: skim.type = field
                case .actor, .id, .kind, .other: break
                }
            }
            guard let more = more() else { return false }
            if !more { return sawActor }
            previous = key
        }
    }

    private mutating func actor(into skim: inout RecordSkim) -> Bool {
        guard let empty = open() else { return false }
        if empty { return true }
        var previous: Range<Int>?
        while true {
            guard let key = key(after: previous), let field = value(depth: 2) else { return false }
            switch name(key) {
            case .id: skim.actorId = field
            case .kind: skim.actorKind = field
            default: break
            }
            guard let more = more() else { return false }
            if !more { return true }
            previous = key
        }
    }

    /// The members the skim looks for.
    private enum Name {
        case actor, causationId, correlationId, eventId, occurredAt, schemaVersion, stream, subject, type, id, kind, other
    }

    private func name(_ key: Range<Int>) -> Name {
        switch key.count {
        case 2: return matches(key, "id") ? .id : .other
        case 4: return matches(key, "kind") ? .kind : matches(key, "type") ? .type : .other
        case 5: return matches(key, "actor") ? .actor : .other
        case 6: return matches(key, "stream") ? .stream : .other
        case 7: return matches(key, "eventId") ? .eventId : matches(key, "subject") ? .subject : .other
        case 10: return matches(key, "occurredAt") ? .occurredAt : .other
        case 11: return matches(key, "causationId") ? .causationId : .other
        case 13: return matches(key, "correlationId") ? .correlationId : matches(key, "schemaVersion") ? .schemaVersion : .other
        default: return .other
        }
    }

    private func matches(_ key: Range<Int>, _ text: StaticString) -> Bool {
        memcmp(bytes + key.lowerBound, text.utf8Start, key.count) == 0
    }

    /// `a < b` byte by byte (for ASCII keys this is RFC 8785's order of UTF-16 code units).
    private func ascending(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let shared = min(a.count, b.count)
        for offset in 0..<shared {
            let left = bytes[a.lowerBound + offset], right = bytes[b.lowerBound + offset]
            if left != right { return left < right }
        }
        return a.count < b.count
    }
}
