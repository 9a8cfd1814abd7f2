import Foundation
import LedgerCore
import PostgresNIO

extension EventStore {
    /// Applies the retention policy: `ledger.apply_retention` records `retention` (a
    /// `RetentionApplied` event) and, when its scope is `subjectKeys`, destroys the key of every
    /// subject it names, in one transaction: the one way a `RetentionApplied` is stored (decision
    /// 0056). Needs the owner's rights. The event carries no personal data, so nothing is sealed.
    ///
    /// - Throws: `append-not-permitted` for an event the retention run may not record (the
    ///   catalogue's ``EventSchema/appenders``); the append's errors otherwise.
    public func applyRetention(log: String, retention: EventInput) async throws -> AppendResult.Appended {
        try EventCatalogue.checkAppender(of: retention.envelope, route: .retention)
        let logger = self.logger
        AppendMode.retention.trace(logger, events: 1)
        return try await pool.transaction { connection in
            let rows = try await connection.watchedQuery("""
                SELECT position, event_id, stream, stream_version, idempotent_replay
                  FROM ledger.apply_retention(\(log), \(retention.canonicalText), \(Self.defaultIdempotencyKey(for: [retention])))
                """, logger: logger)
            guard let appended = try await Self.appendResult(of: rows).events.first else {
                throw LedgerError(.databaseError, "ledger.apply_retention returned no row")
            }
            return appended
        }
    }
}
