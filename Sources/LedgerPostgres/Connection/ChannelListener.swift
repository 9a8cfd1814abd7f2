import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Hears one NOTIFY channel: `LISTEN` on a connection of its own (not one of the pool's), so that a
/// listener holds none of the connections requests need.
///
/// ``run(listening:heard:lost:)`` tells its caller exactly when it can trust that nothing is
/// missed: between `listening` (the LISTEN is in place) and `lost` (the connection ended, or the
/// task was cancelled). Two channels are heard: ``apiKeyChanges(settings:logger:)`` (a key cache
/// keeps keys only in that window, decision 0039) and ``folds(settings:logger:)`` (the findings
/// feed wakes when the anomalies projection has folded further, decision 0081).
public struct ChannelListener: Sendable {
    /// The channel.
    public let channel: String
    /// Where to connect (any role that may connect: LISTEN needs no privilege).
    public let settings: ConnectionSettings
    /// Pause before connecting again after the connection was lost.
    public var retry: Duration
    /// Where it logs a lost connection.
    public let logger: Logger
    /// What its caller does while it is not listening, for the warning it logs once per outage.
    let meanwhile: String

    /// A listener on `channel`.
    public init(channel: String, settings: ConnectionSettings, meanwhile: String, retry: Duration = .seconds(1),
                logger: Logger) {
        self.channel = channel
        self.settings = settings
        self.meanwhile = meanwhile
        self.retry = retry
        self.logger = logger
    }

    /// `consent_ledger_api_keys`, where the `api_keys_notify_change` trigger announces each key
    /// revoked or otherwise changed, by its key id, when the changing transaction commits.
    public static func apiKeyChanges(settings: ConnectionSettings, logger: Logger = Logger(label: "consent-ledger.keys")) -> ChannelListener {
        ChannelListener(channel: "consent_ledger_api_keys", settings: settings,
                        meanwhile: "keys are checked in the database until it is back", logger: logger)
    }

    /// `consent_ledger_folded` (``FindingsFeed/foldedChannel``), where the projection runner
    /// announces `<projection>/<log>` each time a fold commits.
    public static func folds(settings: ConnectionSettings, logger: Logger = Logger(label: "consent-ledger.findings")) -> ChannelListener {
        ChannelListener(channel: FindingsFeed.foldedChannel, settings: settings,
                        meanwhile: "findings are looked for every few seconds until it is back", logger: logger)
    }

    /// Listens until the task is cancelled, connecting again after ``retry`` whenever the
    /// connection is lost. `listening` runs each time the LISTEN is in place, `heard` with the
    /// payload of each notification, and `lost` each time the window ends (before any new `listening`,
    /// and once more at the end).
    public func run(listening: @Sendable () -> Void, heard: @Sendable (String) -> Void, lost: @Sendable () -> Void) async {
        var failures = 0
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: try settings.connectionConfiguration(), id: 0,
                                                                      logger: logger, within: LedgerDatabase.connectLimit)
                do {
                    try await connection.listen(on: channel) { notifications in
                        listening()
                        failures = 0
                        for try await notification in notifications { heard(notification.payload) }
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
                    logger.warning("\(channel): not listening (\(String(describing: error))); \(meanwhile)")
                }
            }
            try? await Task.sleep(for: retry)
        }
    }
}
