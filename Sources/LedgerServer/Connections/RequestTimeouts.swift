import Logging

/// How long `consent-ledger serve` waits for each part of a request, and how many connections it
/// keeps open (decision 0026).
///
/// - ``header``: from a new connection, or from the first byte of the next request on a kept-alive
///   one, until the whole request head (request line and headers) is in.
/// - ``body``: from the end of the head until the last byte of the body, in all (not between
///   bytes, so a body trickled a byte a second is closed too).
/// - ``idle``: a kept-alive connection with no request under way, before the first byte of the next.
///
/// A connection past one of them is closed; a request already read is never cut short by them
/// (its answer has bounds of its own: the database wait, the append queue). When
/// ``maxConnections`` are open, the one that has waited longest for its client's head or next
/// request is closed to make room for a new one (decision 0055).
public struct RequestTimeouts: Sendable, Equatable {
    /// The default wait for a request head: 10 s.
    public static let defaultHeader: Duration = .seconds(10)
    /// The default wait for a whole body: 30 s (4 MiB, the largest body by default, at 140 KB/s).
    public static let defaultBody: Duration = .seconds(30)
    /// The default life of an idle kept-alive connection: 60 s.
    public static let defaultIdle: Duration = .seconds(60)
    /// The default most connections open at once: 1,024.
    public static let defaultMaxConnections = 1_024

    /// The longest wait for a request head.
    public var header: Duration
    /// The longest wait for a whole request body, from the end of its head.
    public var body: Duration
    /// The longest a kept-alive connection may wait for its next request.
    public var idle: Duration
    /// The most connections open at once. When full, the connection that has waited longest for
    /// its client (a head not yet in, or the next request) is closed and a new one accepted; only
    /// when every connection is reading a body or being answered do new ones wait in the listen
    /// backlog until one closes (and are refused by the operating system once it is full).
    public var maxConnections: Int
    /// The connections waiting for their client now, shared by the server's connection limit and
    /// each connection's ``RequestTimeoutHandler``.
    let waiting = WaitingConnections(logger: Logger(label: "consent-ledger.http"))

    /// Equal when every bound is (the record of waiting connections is not compared).
    public static func == (lhs: RequestTimeouts, rhs: RequestTimeouts) -> Bool {
        (lhs.header, lhs.body, lhs.idle, lhs.maxConnections) == (rhs.header, rhs.body, rhs.idle, rhs.maxConnections)
    }

    /// Timeouts; the defaults are 10 s, 30 s, 60 s and 1,024 connections.
    public init(header: Duration = defaultHeader, body: Duration = defaultBody, idle: Duration = defaultIdle,
                maxConnections: Int = defaultMaxConnections) {
        self.header = header
        self.body = body
        self.idle = idle
        self.maxConnections = maxConnections
    }
}
