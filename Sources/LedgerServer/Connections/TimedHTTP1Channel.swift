import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 child channel with ``RequestTimeoutHandler`` in its pipeline and
/// ``RequestBytesWatcher`` in front of its decoder (decision 0026).
struct TimedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let timeouts: RequestTimeouts

    init(responder: @escaping HTTPChannelHandler.Responder, timeouts: RequestTimeouts, logger: Logger) {
        self.timeouts = timeouts
        self.inner = HTTP1Channel(responder: responder,
                                  configuration: .init(additionalChannelHandlers: [RequestTimeoutHandler(timeouts: timeouts, logger: logger)]))
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestBytesWatcher(), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the ledger's request timeouts (``RequestTimeouts``, decision 0026).
    ///
    /// ```swift
    /// Application(router: router, server: .ledgerHTTP1(timeouts: settings.timeouts), configuration: …)
    /// ```
    public static func ledgerHTTP1(timeouts: RequestTimeouts, logger: Logger = Logger(label: "consent-ledger.http")) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in TimedHTTP1Channel(responder: responder, timeouts: timeouts, logger: logger) }
    }
}

extension ApplicationConfiguration {
    /// The configuration `serve` listens with: `address`, and at most `timeouts.maxConnections`
    /// connections at once (``ConnectionLimit``: when full, the connection that has waited longest
    /// for its client is closed to make room; when every one is busy, new connections wait in the
    /// listen backlog). Build the server with ``HTTPServerBuilder/ledgerHTTP1(timeouts:logger:)``
    /// and the same `timeouts`, which share the record of waiting connections.
    public static func ledger(address: BindAddress, timeouts: RequestTimeouts, serverName: String? = nil,
                              logger: Logger = Logger(label: "consent-ledger.http")) -> ApplicationConfiguration {
        ApplicationConfiguration(address: address, serverName: serverName,
                                 availableConnectionsDelegate: ConnectionLimit(maxConnections: timeouts.maxConnections, waiting: timeouts.waiting))
    }
}
