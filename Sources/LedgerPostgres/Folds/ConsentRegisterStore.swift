import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// `consent_register` folded in Swift: loads the stored entries the range touches and the stored
/// approvals of the subjects it rescinds for (`load.sql`), folds the range
/// (``ConsentRegisterFold``) and stores the entries it changed, whole (`write.sql`).
struct ConsentRegisterStore: SwiftFold {
    var reads: [String] { ConsentRegisterFold.reads }

    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws {
        let keys = Array(ConsentRegisterFold.storedKeys(in: events))
        let subjects = Array(ConsentRegisterFold.rescindedSubjects(in: events))
        var binds = PostgresBindings(capacity: 4)
        binds.append(range.log)
        binds.append(TextColumn(keys.map(\.kind)))
        binds.append(TextColumn(keys.map(\.id)))
        binds.append(TextColumn(subjects))
        var stored: [ConsentEntry] = []
        for try await text in try await connection.watchedQuery(
            PostgresQuery(unsafeSQL: definition.statement("load.sql"), binds: binds), logger: logger).decode(String.self) {
            stored.append(try Self.entry(json: text))
        }
        var fold = ConsentRegisterFold(stored: stored)
        fold.fold(events, changes: try await ChangeDirectory.load(for: events, range: range, on: connection, logger: logger))
        let entries = fold.changedEntries
        guard !entries.isEmpty else { return }
        binds = PostgresBindings(capacity: Self.columnCount + 1)
        binds.append(range.log)
        for index in 0..<Self.columnCount {
            binds.append(TextColumn(entries.map { Self.columns(of: $0)[index] }))
        }
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: definition.statement("write.sql"), binds: binds), logger: logger)
    }

    /// The columns load.sql reads and write.sql writes, after log_id.
    static let columnCount = 31

    /// An entry's columns as text, in write.sql's order.
    static func columns(of e: ConsentEntry) -> [String?] {
        func text(_ value: Int64?) -> String? { value.map(String.init) }
        return [e.kind, e.itemId, e.subject, e.bundleId, e.topic, e.changeId, e.ratedApp, e.ratedAge,
                e.askedAt, text(e.askedPosition), e.askedEventId, e.sentVia, e.expiresAt,
                e.answer, e.answerChannel, e.answeredAt, text(e.answeredPosition), e.answeredEventId,
                e.answeredBy, e.guardianAuthenticated, String(e.answersReceived),
                e.expiredAt, text(e.expiredPosition), e.expiredEventId,
                e.failedError, text(e.failedPosition), e.failedEventId, e.failedAt,
                e.rescindedAt, text(e.rescindedPosition), e.rescindedEventId]
    }

    /// An entry from load.sql's JSON array.
    static func entry(json text: String) throws -> ConsentEntry {
        guard case .array(let values) = try JSONParser.parse(Array(text.utf8)), values.count == columnCount else {
            throw LogReader.UnreadableEvent(message: "consent_register.entries: a stored row does not read back: \(text)")
        }
        func string(_ index: Int) -> String? {
            switch values[index] {
            case .string(let s): return s
            case .number(let n): return String(Int64(n))
            default: return nil
            }
        }
        func number(_ index: Int) -> Int64? {
            if case .number(let n) = values[index] { return Int64(n) }
            return nil
        }
        var e = ConsentEntry(kind: string(0) ?? "", itemId: string(1) ?? "")
        e.subject = string(2); e.bundleId = string(3); e.topic = string(4); e.changeId = string(5)
        e.ratedApp = string(6); e.ratedAge = string(7)
        e.askedAt = string(8); e.askedPosition = number(9); e.askedEventId = string(10); e.sentVia = string(11)
        e.expiresAt = string(12)
        e.answer = string(13); e.answerChannel = string(14); e.answeredAt = string(15); e.answeredPosition = number(16)
        e.answeredEventId = string(17); e.answeredBy = string(18); e.guardianAuthenticated = string(19)
        e.answersReceived = Int(number(20) ?? 0)
        e.expiredAt = string(21); e.expiredPosition = number(22); e.expiredEventId = string(23)
        e.failedError = string(24); e.failedPosition = number(25); e.failedEventId = string(26); e.failedAt = string(27)
        e.rescindedAt = string(28); e.rescindedPosition = number(29); e.rescindedEventId = string(30)
        return e
    }
}
