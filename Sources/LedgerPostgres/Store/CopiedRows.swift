import LedgerCore
import NIOCore

/// A bulk batch as rows of `ledger.events` in `COPY … FROM STDIN` text format: positions after
/// the locked head, stream versions after each stream's newest, the expected versions checked,
/// each record built and hashed, chained from the head (decision 0042). The insert trigger checks
/// all of it again.
struct CopiedRows {
    /// The columns written, in the order of each line.
    static let columns = ["log_id", "position", "event_id", "stream", "stream_version", "type", "schema_version",
                          "occurred_at", "recorded_at", "subject", "actor_kind", "actor_id", "correlation_id",
                          "causation_id", "idempotency_key", "record", "leaf_hash", "chain_hash"]

    /// The copy data, in buffers of about a megabyte.
    private(set) var chunks: [ByteBuffer] = []
    /// Each event's position and stream version, in batch order.
    private(set) var appended: [AppendResult.Appended] = []

    /// - Throws: ``WrongExpectedVersion`` for the first event whose condition its stream does not meet.
    init(log: String, events: [EventInput], head: LockedHead, streamVersions: [String: Int64],
         idempotencyKey: String) throws(WrongExpectedVersion) {
        var versions = streamVersions
        var chain = head.chainHash
        var buffer = ByteBuffer()
        buffer.reserveCapacity(1 << 20)
        appended.reserveCapacity(events.count)
        for (index, event) in events.enumerated() {
            let envelope = event.envelope
            let current = versions[envelope.stream] ?? 0
            guard event.expectedVersion.admits(current: current) else {
                throw WrongExpectedVersion(ordinal: Int64(index + 1), stream: envelope.stream, expected: event.expectedVersion.sqlText,
                                           version: current + 1)
            }
            let position = head.position + Int64(index) + 1
            let version = current + 1
            versions[envelope.stream] = version
            let record = LedgerRecord.bytes(canonicalEvent: event.canonicalBytes, log: log, position: position,
                                            recordedAt: head.recordedAt, streamVersion: version)
            let leaf = LedgerHash.leaf(record)
            chain = LedgerHash.chain(previous: chain, leaf: leaf)

            Self.text(log, &buffer); Self.tab(&buffer)
            buffer.writeString(String(position)); Self.tab(&buffer)
            buffer.writeString(envelope.eventId); Self.tab(&buffer)
            Self.text(envelope.stream, &buffer); Self.tab(&buffer)
            buffer.writeString(String(version)); Self.tab(&buffer)
            Self.text(envelope.type, &buffer); Self.tab(&buffer)
            buffer.writeString(String(envelope.schemaVersion)); Self.tab(&buffer)
            Self.text(envelope.occurredAt, &buffer); Self.tab(&buffer)
            Self.text(head.recordedAt, &buffer); Self.tab(&buffer)
            Self.text(envelope.subject, &buffer); Self.tab(&buffer)
            Self.text(envelope.actor.kind, &buffer); Self.tab(&buffer)
            Self.text(envelope.actor.id, &buffer); Self.tab(&buffer)
            Self.text(envelope.correlationId, &buffer); Self.tab(&buffer)
            Self.text(envelope.causationId, &buffer); Self.tab(&buffer)
            Self.text(idempotencyKey, &buffer); Self.tab(&buffer)
            Self.bytea(record, &buffer); Self.tab(&buffer)
            Self.bytea(leaf, &buffer); Self.tab(&buffer)
            Self.bytea(chain, &buffer)
            buffer.writeInteger(UInt8(ascii: "\n"))
            if buffer.readableBytes >= 1 << 20 {
                chunks.append(buffer)
                buffer = ByteBuffer()
                buffer.reserveCapacity(1 << 20)
            }
            appended.append(.init(position: position, eventId: envelope.eventId, stream: envelope.stream, streamVersion: version))
        }
        if buffer.readableBytes > 0 { chunks.append(buffer) }
    }

    /// The first event whose expected version its stream does not meet: what
    /// `ledger.raise_wrong_expected_version` is given, so that the bulk load refuses it in the words
    /// of every other mode (CL001).
    struct WrongExpectedVersion: Error {
        /// The event's index in the batch, 1-based.
        var ordinal: Int64
        /// Its stream.
        var stream: String
        /// Its condition: `noStream` or a version.
        var expected: String
        /// The version it would have had (the stream's newest plus one).
        var version: Int64
    }

    private static func tab(_ buffer: inout ByteBuffer) { buffer.writeInteger(UInt8(ascii: "\t")) }

    /// A text value in COPY's text format: `\N` for NULL; backslash, tab, newline and carriage
    /// return escaped.
    private static func text(_ value: String?, _ buffer: inout ByteBuffer) {
        guard let value else { buffer.writeStaticString(#"\N"#); return }
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard value.utf8.contains(where: special) else { buffer.writeString(value); return }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString(#"\\"#)
            case UInt8(ascii: "\t"): buffer.writeStaticString(#"\t"#)
            case UInt8(ascii: "\n"): buffer.writeStaticString(#"\n"#)
            case UInt8(ascii: "\r"): buffer.writeStaticString(#"\r"#)
            default: buffer.writeInteger(byte)
            }
        }
    }

    /// A `bytea` value in COPY's text format: `\\x` and the hex digits (the backslash doubled).
    private static func bytea(_ bytes: [UInt8], _ buffer: inout ByteBuffer) {
        buffer.writeStaticString(#"\\x"#)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: bytes.count * 2) { output in
            bytes.withUnsafeBufferPointer { input in
                for (index, byte) in input.enumerated() {
                    output[2 * index] = hexDigits[Int(byte >> 4)]
                    output[2 * index + 1] = hexDigits[Int(byte & 0x0f)]
                }
            }
            return bytes.count * 2
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
