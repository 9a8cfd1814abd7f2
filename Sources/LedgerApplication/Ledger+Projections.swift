import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Where each projection stands (``ProjectionStatus``): built or not, and per log its
    /// checkpoint, the head, the lag and a stall, read as the auditor.
    public func projectionStatus() async throws -> [ProjectionStatus] {
        try await ProjectionStatus.all(pool: pools.auditor, logger: logger)
    }

    /// Keeps the projections caught up until the task is cancelled (``ProjectionFollower``, woken
    /// by every append's NOTIFY), folding as the administrator. A failure that lasts is reported
    /// through `note` and tried again, never ends the follower: the server it runs in goes on.
    public func followProjections(note: @escaping @Sendable (String) -> Void) async throws {
        let follower = ProjectionFollower(runner: ProjectionRunner(pool: pools.administrator))
        try await follower.follow(note: note, stopOnLastingFailure: false)
    }
}
