import Foundation
import LedgerCore

/// The fast half of "every column is a copy of its record": whether the columns of one event are
/// exactly what its skimmed record (``RecordSkim``) says.
///
/// It only ever answers "certainly the same" (`true`) or "not sure" (`false`). Every event it is
/// not sure of goes to the database's own rule, `ledger.event_column_problem` (through
/// `ledger.column_problems`), which gives the verdict and the message; so the rule that an event's
/// columns agree with its record stays written once, in SQL, and this is a shortcut past it for
/// the records the ledger writes itself (decision 0043). Each comparison is the SQL rule's,
/// restricted to values whose text has one spelling: canonical integers (`p_position::text =
/// record->>'position'`), strings without escapes, `recorded_at` in its fixed format and
/// `occurred_at` as a strict RFC 3339 time with at most six fraction digits.
///
/// The columns arrive as one composite value (``columns``) in PostgreSQL's binary form: a column
/// count, then for each column its type oid, its length (-1 for NULL) and its bytes. One cell
/// instead of twelve costs the client a fraction of the per-cell work of the driver.
enum ColumnAgreement {
    /// The composite the range query selects after `position, record, leaf_hash, chain_hash`.
    static let columns = "ROW(event_id, stream, stream_version, type, schema_version, occurred_at, recorded_at, "
        + "subject, actor_kind, actor_id, correlation_id, causation_id)"

    private static let columnCount = 12

    /// True when the composite `columns` certainly agrees with `record` (skimmed as `skim`),
    /// `log` and `position`.
    static func agrees(record: UnsafeRawBufferPointer, skim: RecordSkim, log: [UInt8], position: Int64,
                       columns: UnsafeRawBufferPointer) -> Bool {
        guard let fields = Composite(columns, count: columnCount) else { return false }
        let eventId = fields[0], stream = fields[1], streamVersion = fields[2], type = fields[3], schemaVersion = fields[4]
        let occurredAt = fields[5], recordedAt = fields[6]
        guard skim.log.kind == .string, log.withUnsafeBytes({ same(record, skim.log.range, $0) }),
              integer(record, skim.position) == position,
              let eventId, uuid(eventId, equals: record, skim.eventId),
              let stream, text(stream, equals: record, skim.stream),
              let streamVersion, streamVersion.count == 8,
              integer(record, skim.streamVersion) == Int64(bigEndian: streamVersion.loadUnaligned(as: Int64.self)),
              let type, text(type, equals: record, skim.type),
              let schemaVersion, schemaVersion.count == 4,
              integer(record, skim.schemaVersion) == Int64(Int32(bigEndian: schemaVersion.loadUnaligned(as: Int32.self))),
              let occurredAt, occurredAt.count == 8, skim.occurredAt.kind == .string,
              PostgresTimestamp.microseconds(rfc3339: slice(record, skim.occurredAt.range), fixedFormat: false)
                == Int64(bigEndian: occurredAt.loadUnaligned(as: Int64.self)),
              let recordedAt, recordedAt.count == 8, skim.recordedAt.kind == .string,
              PostgresTimestamp.microseconds(rfc3339: slice(record, skim.recordedAt.range), fixedFormat: true)
                == Int64(bigEndian: recordedAt.loadUnaligned(as: Int64.self))
        else { return false }
        for (index, field) in [skim.subject, skim.actorKind, skim.actorId, skim.correlationId, skim.causationId].enumerated() {
            if let column = fields[7 + index] {
                guard text(column, equals: record, field) else { return false }
            } else {
                guard field.kind == .absent || field.kind == .null else { return false }
            }
        }
        return true
    }

    /// The fields of a composite value in binary form; nil for NULL.
    private struct Composite {
        var fields: [UnsafeRawBufferPointer?]

        init?(_ bytes: UnsafeRawBufferPointer, count: Int) {
            guard bytes.count >= 4, Int32(bigEndian: bytes.loadUnaligned(as: Int32.self)) == count else { return nil }
            fields = []
            fields.reserveCapacity(count)
            var at = 4
            for _ in 0..<count {
                guard bytes.count - at >= 8 else { return nil }
                let length = Int(Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 4, as: Int32.self)))
                at += 8
                if length < 0 {
                    fields.append(nil)
                    continue
                }
                guard bytes.count - at >= length else { return nil }
                fields.append(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + length)]))
                at += length
            }
            guard at == bytes.count else { return nil }
        }

        subscript(index: Int) -> UnsafeRawBufferPointer? { fields[index] }
    }

    private static func slice(_ record: UnsafeRawBufferPointer, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: record[range])
    }

    private static func same(_ record: UnsafeRawBufferPointer, _ range: Range<Int>, _ other: UnsafeRawBufferPointer) -> Bool {
        range.count == other.count && (range.isEmpty || memcmp(record.baseAddress! + range.lowerBound, other.baseAddress!, range.count) == 0)
    }

    /// A string field whose bytes are the text column's.
    private static func text(_ column: UnsafeRawBufferPointer, equals record: UnsafeRawBufferPointer, _ field: RecordSkim.Field) -> Bool {
        field.kind == .string && same(record, field.range, column)
    }

    /// The value of a canonical integer field (at most 15 digits, so exact), or nil.
    private static func integer(_ record: UnsafeRawBufferPointer, _ field: RecordSkim.Field) -> Int64? {
        guard field.kind == .integer else { return nil }
        var value: Int64 = 0
        var negative = false
        for index in field.range {
            let byte = record[index]
            if byte == UInt8(ascii: "-") { negative = true; continue }
            value = value * 10 + Int64(byte &- UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    /// A `uuid` column (16 bytes) against a string field in `uuid::text`'s form (lowercase, hyphenated).
    private static func uuid(_ uuid: UnsafeRawBufferPointer, equals record: UnsafeRawBufferPointer, _ field: RecordSkim.Field) -> Bool {
        guard field.kind == .string, field.range.count == 36, uuid.count == 16 else { return false }
        var at = field.range.lowerBound
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 {
                guard record[at] == UInt8(ascii: "-") else { return false }
                at += 1
            }
            let byte = uuid[index]
            guard record[at] == hexDigits[Int(byte >> 4)], record[at + 1] == hexDigits[Int(byte & 0x0f)] else { return false }
            at += 2
        }
        return true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
