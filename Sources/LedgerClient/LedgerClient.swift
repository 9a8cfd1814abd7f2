import AsyncHTTPClient
import Foundation
import LedgerAPIModel
import LedgerCore
import Logging
import NIOCore
import NIOHTTP1

/// The ConsentLedger HTTP API (docs/http-api.md) for an app's backend: typed calls, answers as
/// ``APIModel`` bodies, errors as ``LedgerClientError``, and retries that are always safe.
///
/// A call that fails for a reason that may pass (the server or its database unavailable, 503; too
/// busy, 429; the connection lost or timed out before an answer) is sent again, up to
/// ``RetryPolicy/attempts`` times, after the server's `Retry-After` or a growing pause. An append
/// is sent again **unchanged, with the same `Idempotency-Key`**: if the first attempt was stored
/// and only its answer was lost, the retry is answered as a replay (200, `idempotentReplay`) and
/// nothing is stored twice. Without a key the server still recognises the retry: a single event by
/// its event id, a batch by its content's hash (decision 0004).
///
/// ```swift
/// let client = LedgerClient(baseURL: "https://ledger.example.com", apiKey: "cl_…")
/// let answer = try await client.append(log: "acme", events: [try EventInput(line: Array(line.utf8))])
/// print(answer.firstPosition)
/// ```
public struct LedgerClient: Sendable {
    /// The server, such as `http://127.0.0.1:8080` (no trailing slash needed).
    public let baseURL: String
    /// The bearer API key (`cl_<id>_<secret>`).
    public let apiKey: String
    /// When and how often to try again.
    public let retry: RetryPolicy
    /// How long one attempt may take, connecting included (AsyncHTTPClient keeps trying to connect
    /// to a server that refuses until this runs out).
    public let timeout: TimeAmount
    /// The HTTP client underneath (its owner shuts it down; ``HTTPClient/shared`` needs no shutdown).
    public let http: HTTPClient
    /// Where retries are logged.
    public let logger: Logger

    /// A client of the server at `baseURL` with `apiKey`.
    public init(baseURL: String, apiKey: String, retry: RetryPolicy = RetryPolicy(), timeout: TimeAmount = .seconds(30),
                http: HTTPClient = .shared, logger: Logger = Logger(label: "consent-ledger.client")) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.apiKey = apiKey
        self.retry = retry
        self.timeout = timeout
        self.http = http
        self.logger = logger
    }

    // MARK: Appends

    /// Appends `events` to `log` as one atomic batch (checked here first, so a malformed event
    /// fails before anything is sent). See ``append(log:ndjson:idempotencyKey:)``.
    public func append(log: String, events: [EventInput], idempotencyKey: String? = nil) async throws -> APIModel.AppendResult {
        var body: [UInt8] = []
        for event in events {
            body += event.submissionBytes
            body.append(0x0A)
        }
        return try await append(log: log, ndjson: body, idempotencyKey: idempotencyKey)
    }

    /// Appends the NDJSON `ndjson` (one event per line) to `log` as one atomic batch: all of it is
    /// stored or none. Retried with the same `idempotencyKey`; returns the positions (also for a
    /// retry answered as a replay).
    public func append(log: String, ndjson: [UInt8], idempotencyKey: String? = nil) async throws -> APIModel.AppendResult {
        var headers: HTTPHeaders = ["Content-Type": "application/x-ndjson"]
        if let idempotencyKey { headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        return try await send(.POST, path: "/v1/logs/\(Self.segment(log))/events", headers: headers, body: ndjson)
    }

    /// Forwards an App Store `RESCIND_CONSENT` notification exactly as Apple sent it, with the
    /// subject it concerns and what the app did; the ledger verifies it and records `ConsentRescinded`.
    public func forwardAppStoreNotification(log: String, _ notification: APIModel.AppStoreNotificationRequest) async throws
        -> APIModel.AppStoreNotificationResult {
        try await send(.POST, path: "/v1/logs/\(Self.segment(log))/app-store/notifications",
                       headers: ["Content-Type": "application/json"], body: try CanonicalJSON.encode(encodable: notification))
    }

    // MARK: Reads

    /// Subjects of `log` by pseudonym prefix, or by a denial, rescission or violation (a page;
    /// pass its `next` as `after` for the next one).
    public func subjects(log: String, prefix: String? = nil, has: String? = nil, limit: Int? = nil, after: String? = nil) async throws
        -> APIModel.SubjectList {
        try await send(.GET, path: "/v1/logs/\(Self.segment(log))/subjects",
                       query: [("prefix", prefix), ("has", has), ("limit", limit.map(String.init)), ("after", after)])
    }

    /// The state of `subject` as of `asOf` (a position, a day or an RFC 3339 time; nil: the head).
    public func state(log: String, subject: String, asOf: String? = nil, clock: String? = nil) async throws -> APIModel.SubjectState {
        try await send(.GET, path: "/v1/logs/\(Self.segment(log))/subjects/\(Self.segment(subject))/state",
                       query: [("asOf", asOf), ("clock", clock)])
    }

    /// The records of `log` after `after` (at most `limit`), exactly as hashed: NDJSON bytes.
    public func events(log: String, after: Int64 = 0, limit: Int64? = nil, stream: String? = nil) async throws -> [UInt8] {
        try await sendRaw(.GET, path: "/v1/logs/\(Self.segment(log))/events",
                          query: [("after", String(after)), ("limit", limit.map(String.init)), ("stream", stream)]).body
    }

    /// A report (`consent-register` or `regulator`) in `format` (`json`, `csv`, `html`), with its
    /// seal (`Report-Seal`: the SHA-256 of the sealed JSON). `query` holds the report's parameters.
    public func report(log: String, _ name: String, format: String = "json", query: [(String, String?)] = []) async throws
        -> (bytes: [UInt8], seal: String?) {
        let answer = try await sendRaw(.GET, path: "/v1/logs/\(Self.segment(log))/reports/\(name)", query: query + [("format", format)])
        return (answer.body, answer.headers.first(name: "Report-Seal"))
    }

    // MARK: Administration

    /// Erases `subject` (its key destroyed, `SubjectErased` recorded). Not retried on a lost
    /// answer: a second erasure of the same subject is refused, so retry by hand after checking.
    public func erase(log: String, subject: String, _ request: APIModel.ErasureRequest) async throws -> APIModel.ErasureResult {
        try await send(.POST, path: "/v1/logs/\(Self.segment(log))/subjects/\(Self.segment(subject))/erase",
                       headers: ["Content-Type": "application/json"], body: try CanonicalJSON.encode(encodable: request), retrying: false)
    }

    /// `GET /ready`: the server and its database answer.
    public func ready() async throws -> APIModel.Ready {
        try await send(.GET, path: "/ready", retrying: false)
    }
}
