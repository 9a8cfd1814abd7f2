import LedgerApplication
import ServiceLifecycle

/// Keeps the projections caught up inside the server process (``Ledger/followProjections(note:)``,
/// woken by every append's NOTIFY), and stops with the server.
public struct ProjectionService: Service {
    let ledger: Ledger
    let note: @Sendable (String) -> Void

    /// A service folding `ledger`'s projections, reporting through `note`.
    public init(ledger: Ledger, note: @escaping @Sendable (String) -> Void) {
        self.ledger = ledger
        self.note = note
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            do {
                try await ledger.followProjections(note: note)
            } catch is CancellationError {}
        }
    }
}
