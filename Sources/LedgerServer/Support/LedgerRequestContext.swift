import Hummingbird
import NIOCore
import LedgerCore

/// The request context of the HTTP API: Hummingbird's core storage and, once the API-key
/// middleware has run, the key that made the request.
public struct LedgerRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The authenticated key (nil before authentication, and on the open routes).
    public var key: APIKey?

    /// The client's address, when the connection has one (for the record of reads and of sign-ins):
    /// the peer's, or the one a trusted proxy forwarded for (``ClientAddressMiddleware``).
    public var remoteAddress: String?
    /// Whether a trusted proxy said the client reached it over TLS (`X-Forwarded-Proto: https`,
    /// believed only from a `serve --trusted-proxy` peer: ``ClientAddressMiddleware``).
    public var forwardedOverTLS = false
    /// The door the request came through, for the record of reads: the API, or the console
    /// (set by its middleware).
    public var channel: ReadAccess.Channel = .api

    /// A context for a new request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
