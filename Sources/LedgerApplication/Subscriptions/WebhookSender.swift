import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerPostgres
import NIOCore
import NIOHTTP1

/// POSTs one item's body to a subscription's URL, signed (``WebhookSignature``), and says what came
/// of it: the status, or the transport error, and how long it took. Redirects are not followed (a
/// receiver that moved answers 3xx, which is a failure the delivery log shows), and the answer's
/// body is read and dropped.
public struct WebhookSender: Sendable {
    /// The HTTP client (its owner shuts it down).
    public let http: HTTPClient
    /// The longest one attempt may take, connecting included.
    public var timeout: Duration

    /// A sender over `http`.
    public init(http: HTTPClient, timeout: Duration = .seconds(10)) {
        self.http = http
        self.timeout = timeout
    }

    /// An HTTP client configured for deliveries: no redirects followed, connections kept, and a
    /// connection refused is a failed attempt at once (the deliverer's own retry schedule waits, not
    /// AsyncHTTPClient's retries of the connection until its connect time-out).
    public static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends `body` (the item `item`) to `url`, signed with `secret`.
    public func send(_ item: WebhookItem, body: [UInt8], to url: String, secret: String) async -> AttemptResult {
        let started = Date()
        let clock = ContinuousClock.now
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "\(LedgerSoftware.product)-webhooks")
        request.headers.add(name: "ConsentLedger-Delivery", value: item.id)
        request.headers.add(name: WebhookSignature.header,
                            value: WebhookSignature.header(body: body, secret: secret, timestamp: Int64(started.timeIntervalSince1970)))
        request.body = .bytes(ByteBuffer(bytes: body))
        func elapsed() -> Double {
            let spent = ContinuousClock.now - clock
            return Double(spent.components.seconds) * 1_000 + Double(spent.components.attoseconds) / 1e15
        }
        do {
            let response = try await http.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000
                                                                                 + timeout.components.attoseconds / 1_000_000_000))
            for try await _ in response.body {}
            return AttemptResult(attemptedAt: started, status: Int(response.status.code), error: nil, latencyMs: elapsed())
        } catch {
            return AttemptResult(attemptedAt: started, status: nil, error: String(String(describing: error).prefix(500)), latencyMs: elapsed())
        }
    }
}
