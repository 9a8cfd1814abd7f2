import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// `pending` folded in Swift: loads the stored items the range touches (`load.sql`), folds the
/// range (``PendingFold``), stores the new items (`open.sql`) and the closings of stored ones
/// (`close.sql`).
struct PendingStore: SwiftFold {
    var reads: [String] { PendingFold.reads }

    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws {
        let keys = Array(PendingFold.keys(in: events))
        var stored: [PendingFold.Key: PendingFold.Stored] = [:]
        var binds = PostgresBindings(capacity: 3)
        binds.append(range.log)
        binds.append(TextColumn(keys.map(\.kind)))
        binds.append(TextColumn(keys.map(\.id)))
        for try await (kind, id, asked, closed) in try await connection.watchedQuery(
            PostgresQuery(unsafeSQL: definition.statement("load.sql"), binds: binds), logger: logger
        ).decode((String, String, Int64, Bool).self) {
            stored[PendingFold.Key(kind: kind, id: id)] = PendingFold.Stored(askedPosition: asked, isClosed: closed)
        }
        var fold = PendingFold(stored: stored)
        for event in events { fold.apply(event) }

        if !fold.opened.isEmpty {
            let items = fold.opened
            var binds = PostgresBindings(capacity: 14)
            func column(_ value: (PendingFold.Item) -> String?) { binds.append(TextColumn(items.map(value))) }
            column { _ in range.log }; column(\.key.kind); column(\.key.id); column(\.subject); column(\.bundleId)
            column(\.topic); column(\.changeId); column { $0.ratedApp.map(String.init) }; column(\.askedAt)
            column { String($0.askedPosition) }; column(\.askedEventId); column(\.expiresAt); column(\.closedBy)
            column { $0.closedPosition.map(String.init) }
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: definition.statement("open.sql"), binds: binds),
                                              logger: logger)
        }
        if !fold.closedStored.isEmpty {
            let closings = fold.closedStored
            var binds = PostgresBindings(capacity: 5)
            binds.append(range.log)
            binds.append(TextColumn(closings.map(\.key.kind)))
            binds.append(TextColumn(closings.map(\.key.id)))
            binds.append(TextColumn(closings.map(\.type)))
            binds.append(TextColumn(closings.map { String($0.position) }))
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: definition.statement("close.sql"), binds: binds),
                                              logger: logger)
        }
    }
}
