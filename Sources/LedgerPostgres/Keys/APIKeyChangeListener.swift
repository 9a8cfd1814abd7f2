import Foundation
import Logging
import PostgresNIO

/// Hears every change to a stored API key: `LISTEN consent_ledger_api_keys` on a connection of its
/// own (not one of the pool's), where the `api_keys_notify_change` trigger announces each key
/// revoked or otherwise changed, by its key id, when the changing transaction commits.
///
/// ``run(listening:changed:lost:)`` tells its caller exactly when it can trust that nothing is
/// missed: between `listening` (the LISTEN is in place) and `lost` (the connection ended, or the
/// task was cancelled). A key cache keeps keys only in that window (decision 0039).
public struct APIKeyChangeListener: Sendable {
    /// The notification channel the trigger uses.
    public static let channel = "consent_ledger_api_keys"

    /// Where to connect (any role that may connect: LISTEN needs no privilege).
    public let settings: ConnectionSettings
    /// Pause before connecting again after the connection was lost.
    public var retry: Duration
    /// Where it logs a lost connection.
    public let logger: Logger

    /// A listener on `settings`.
    public init(settings: ConnectionSettings, retry: Duration = .seconds(1),
                logger: Logger = Logger(label: "consent-ledger.keys")) {
        self.settings = settings
        self.retry = retry
        self.logger = logger
    }

    /// Listens until the task is cancelled, connecting again after ``retry`` whenever the
    /// connection is lost. `listening` runs each time the LISTEN is in place, `changed` with the key
    /// id of each notification, and `lost` each time the window ends (before any new `listening`,
    /// and once more at the end).
    public func run(listening: @Sendable () -> Void, changed: @Sendable (String) -> Void, lost: @Sendable () -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: try settings.connectionConfiguration(), id: 0,
                                                                      logger: logger, within: LedgerDatabase.connectLimit)
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        listening()
                        failures = 0
                        for try await notification in notifications { changed(notification.payload) }
                    }
                } catch {
                    lost()
                    try? await connection.close()
                    throw error
                }
                lost()
                try? await connection.close()
            } catch {
                failures += 1
                // Once per outage, not once per second.
                if failures == 1, !Task.isCancelled {
                    logger.warning("API key changes: not listening (\(String(describing: error))); keys are checked in the database until it is back")
                }
            }
            try? await Task.sleep(for: retry)
        }
    }
}
