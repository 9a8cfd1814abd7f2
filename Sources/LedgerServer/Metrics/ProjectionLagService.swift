import LedgerApplication
import LedgerCore
import Logging
import Metrics
import ServiceLifecycle

/// Every few seconds, sets `consent_ledger_projection_lag_events{projection, log}` to how many
/// positions each projection is behind each log's head, and
/// `consent_ledger_projection_stalled_position{projection, log}` to the position a log stalled at
/// (0 when it has not: ``ProjectionStall``), from ``Ledger/projectionStatus()``.
public struct ProjectionLagService: Service {
    let ledger: Ledger
    let interval: Duration
    let logger: Logger

    /// A service reading `ledger`'s projections' lag every `interval`.
    public init(ledger: Ledger, interval: Duration = .seconds(5), logger: Logger) {
        self.ledger = ledger
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        // Cancelled at the server's graceful shutdown: a read waiting for a connection (the
        // database restarting, say) must not hold the shutdown up.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    for status in try await ledger.projectionStatus() {
                        for position in status.logs {
                            Gauge(label: "consent_ledger_projection_lag_events",
                                  dimensions: [("projection", status.projection), ("log", position.log)])
                                .record(max(0, position.head - position.position))
                            Gauge(label: "consent_ledger_projection_stalled_position",
                                  dimensions: [("projection", status.projection), ("log", position.log)])
                                .record(position.stall?.position ?? 0)
                        }
                    }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("could not read the projections' lag: \(error)")
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
