import LedgerApplication
import ServiceLifecycle

/// Keeps the server's cache of verified API keys in step with the database
/// (``Ledger/followKeyChanges()``): a revoked key is refused as soon as its revocation's
/// notification arrives, and nothing is cached while the listening connection is down
/// (decision 0039). Stops with the server.
public struct KeyChangeService: Service {
    let ledger: Ledger

    /// A service following `ledger`'s key changes.
    public init(ledger: Ledger) {
        self.ledger = ledger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await ledger.followKeyChanges()
        }
    }
}
