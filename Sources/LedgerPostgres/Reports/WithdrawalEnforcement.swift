import LedgerCore
import Logging
import PostgresNIO

/// How one withdrawal of consent was enforced (decision 0084): when the ledger told the app (a
/// `WithdrawalDelivered`) and when the app closed the feature (an `AccessGateApplied` closing it),
/// as projections/reports/withdrawals.sql finds them, for the regulator report and the consent
/// register alike.
struct WithdrawalEnforcement: Sendable, Equatable {
    /// One step of the loop: the event that shows it, when, and how long after the rescission.
    struct Step: Sendable, Equatable {
        /// Its position.
        var position: Int64
        /// Its event id.
        var eventId: String
        /// When (UTC, to the second): a delivery's `deliveredAt`, a gate's `occurredAt`.
        var at: String
        /// Seconds after the rescission's `occurredAt`.
        var seconds: Int64
    }

    /// The app was told (nil: not yet, as of the position read).
    var told: Step?
    /// The app closed the feature (nil: not yet).
    var closed: Step?

    /// Neither step: the enforcement of a withdrawal nothing followed.
    init(told: Step? = nil, closed: Step? = nil) {
        self.told = told
        self.closed = closed
    }

    /// The enforcement of each `ConsentRescinded` of `log` at `positions`, as of `asOf`, by
    /// position, on a connection whose search_path finds `report_facts`' `facts` (``ReportSource``).
    static func read(log: String, asOf: Int64, positions: [Int64], on connection: PostgresConnection,
                     logger: Logger) async throws -> [Int64: WithdrawalEnforcement] {
        guard !positions.isEmpty else { return [:] }
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        binds.append(asOf)
        binds.append(positions)
        var found: [Int64: WithdrawalEnforcement] = [:]
        let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: ReportSQL.withdrawals, binds: binds), logger: logger)
        for try await (position, toldPosition, toldId, toldAt, toldSeconds, closedPosition, closedId, closedAt, closedSeconds)
            in rows.decode((Int64, Int64?, String?, String?, Int64?, Int64?, String?, String?, Int64?).self) {
            found[position] = WithdrawalEnforcement(
                told: step(toldPosition, toldId, toldAt, toldSeconds), closed: step(closedPosition, closedId, closedAt, closedSeconds))
        }
        return found
    }

    private static func step(_ position: Int64?, _ eventId: String?, _ at: String?, _ seconds: Int64?) -> Step? {
        guard let position, let eventId, let at, let seconds else { return nil }
        return Step(position: position, eventId: eventId, at: at, seconds: seconds)
    }
}
