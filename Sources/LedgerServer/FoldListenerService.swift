import LedgerApplication
import ServiceLifecycle

/// Wakes the findings streams (`GET /v1/logs/{log}/findings/stream`) when the anomalies projection
/// has folded further (``Ledger/followFolds()``: one listening connection for every stream, none of
/// the pool's). While it is down, each stream reads again every two seconds. Stops with the server.
public struct FoldListenerService: Service {
    let ledger: Ledger

    /// A service following `ledger`'s folds.
    public init(ledger: Ledger) {
        self.ledger = ledger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await ledger.followFolds()
        }
    }
}
