import Foundation
import HTTPTypes
import LedgerCore
import LedgerPostgres
import Hummingbird
import HummingbirdTesting
import LedgerServer
import Logging
import Synchronization
import Testing

/// Every refused bearer token leaves a line in the request log (issue 36, Low: "every bad token
/// … leaves no trace"), naming the key id when the token has one and never its secret.
@Suite("HTTP route layer: refused keys are logged")
struct RefusedKeyLogTests {
    static let secret = String(repeating: "s", count: 43)

    @Test("a missing, malformed or unknown key is one log line each, with the reason and key id, without the secret")
    func refusedTokensLogged() async throws {
        let log = CapturedLog()
        let api = LedgerAPI(operations: ScriptedLedger(), logger: Logger(label: "test") { _ in log })
        try await Application(router: api.router()).test(.router) { client in
            _ = try await client.execute(uri: "/v1/logs/acme/events", method: .get)
            _ = try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: [.authorization: "Bearer not-a-key"])
            _ = try await client.execute(uri: "/v1/logs/acme/events", method: .get,
                                         headers: [.authorization: "Bearer cl_abcdefghijkl_\(Self.secret)"])
        }
        let lines = log.lines.filter { $0.message.contains("API key refused") }
        #expect(lines.count == 3, "\(log.lines)")
        #expect(lines.allSatisfy { $0.level >= .notice }, "\(lines)")
        #expect(lines.map { $0.metadata["api.key.refused"] } == ["missing", "malformed", "unknown"], "\(lines)")
        #expect(lines.last?.metadata["api.key"] == "abcdefghijkl", "\(lines)")
        #expect(lines.allSatisfy { $0.metadata["http.path"] == "/v1/logs/acme/events" }, "\(lines)")
        #expect(!log.lines.contains { "\($0)".contains(Self.secret) || "\($0)".contains("not-a-key") }, "a secret was logged")
    }
}

/// A guessed key cost a database lookup each time (issue 36, Low): past a bound of refused keys a
/// minute, one client is answered 429 before any lookup, while another client's key still works.
@Suite("HTTP route layer: a client's refused keys are bounded")
struct RefusedKeyBudgetTests {
    @Test("past the bound, 429 too-many-refused-keys with Retry-After and no lookup; a valid key from the same client is refused too, other clients are not")
    func bounded() async throws {
        let good = "cl_goodgoodgood_\(RefusedKeyLogTests.secret)"
        var script = ScriptedLedger.Script()
        script.keys[good] = APIKey(keyID: "goodgoodgood", log: "acme", role: .auditor, label: "", createdAt: "", revokedAt: nil)
        let ledger = ScriptedLedger(script)
        var settings = ServerSettings()
        settings.maxRefusedKeysPerMinute = 3
        try await Application(router: LedgerAPI(operations: ledger, settings: settings).router()).test(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for guess in 0..<5 {
                let response = try await client.execute(uri: "/v1/logs/acme/events", method: .get,
                                                        headers: [.authorization: "Bearer cl_guess\(guess)guess\(guess)_x"])
                statuses.append(response.status)
                if guess == 4 {
                    #expect(response.headers[.retryAfter].flatMap(Int.init).map { (1...61).contains($0) } == true, "\(response.headers)")
                    #expect(String(buffer: response.body).contains("too-many-refused-keys"), "\(String(buffer: response.body))")
                }
            }
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests, .tooManyRequests])
            // The same client's good key waits out the minute too: the bound is the client's, not the key's.
            let same = try await client.execute(uri: "/v1/logs/acme/events", method: .get, headers: [.authorization: "Bearer \(good)"])
            #expect(same.status == .tooManyRequests)
        }
        let lookups = ledger.calls.filter { if case .authenticate = $0 { return true } else { return false } }
        #expect(lookups.count == 3, "only the first three guesses were looked up: \(ledger.calls)")
        // Counted per client: a router test's requests have no address and are never counted.
        try await Application(router: LedgerAPI(operations: ledger, settings: settings).router()).test(.router) { client in
            let other = try await client.execute(uri: "/v1/logs/acme/events?limit=1", method: .get, headers: [.authorization: "Bearer \(good)"])
            #expect(other.status != .tooManyRequests && other.status != .unauthorized, "\(other.status)")
        }
    }
}

/// A log handler that keeps every line, for tests.
final class CapturedLog: LogHandler, @unchecked Sendable {
    /// One line: its level, message and metadata (values as text).
    struct Line: Sendable, CustomStringConvertible {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
        var description: String { "\(level) \(message) \(metadata)" }
    }
    private let kept = Mutex<[Line]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    /// The lines so far.
    var lines: [Line] { kept.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        kept.withLock { $0.append(Line(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })) }
    }
}
