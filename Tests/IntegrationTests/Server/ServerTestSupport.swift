import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import NIOCore

/// A test database with the HTTP API on it and keys for each role of log `acme` (and one ingest
/// key of another log, `other`).
struct ServerFixture: Sendable {
    let db: TestDatabase
    let tokens: [String: String]   // "ingest", "auditor", "admin", "otherIngest"

    static func make() async throws -> ServerFixture {
        let db = try await TestDatabase.create()
        let tokens = try await db.as(.administrator) { client in
            let store = APIKeyStore(pool: client)
            var tokens: [String: String] = [:]
            for role in APIRole.allCases { tokens[role.rawValue] = try await store.create(log: "acme", role: role, label: "test").1 }
            tokens["otherIngest"] = try await store.create(log: "other", role: .ingest).1
            return tokens
        }
        return ServerFixture(db: db, tokens: tokens)
    }

    /// Runs `body` against the router (no sockets; `live`: a real socket on loopback), on real
    /// pools of the three roles.
    func test<Value: Sendable>(settings: ServerSettings = ServerSettings(), live: Bool = false,
                               _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await test(settings: settings, live: live) { client, _ in try await body(client) }
    }

    /// The same, with the server's pools too (for a test that holds their connections itself).
    func test<Value: Sendable>(settings: ServerSettings = ServerSettings(), live: Bool = false,
                               _ body: @Sendable (any TestClientProtocol, RolePools) async throws -> Value) async throws -> Value {
        try await db.as(.application) { app in
            try await db.as(.auditor) { auditor in
                try await db.as(.administrator) { admin in
                    let pools = RolePools(application: app, auditor: auditor, administrator: admin)
                    let api = LedgerAPI(ledger: Ledger(pools: pools), settings: settings)
                    let app = Application(router: api.router(), server: .ledgerHTTP1(timeouts: settings.timeouts),
                                          configuration: .ledger(address: .hostname("127.0.0.1", port: 0), timeouts: settings.timeouts))
                    return try await app.test(live ? .live : .router) { client in
                        // Live, Hummingbird's harness connects its test client without waiting; a body that
                        // ends before that connection is served lets the server stop with it still queued,
                        // which traps in NIO (apple/swift-nio#3481). One request through it first settles it.
                        if live {
                            do {
                                _ = try await client.execute(uri: "/health", method: .get)
                            } catch where settings.timeouts.header < .seconds(5) && Self.closedByServer(error) {
                                // The server closed that connection itself: a short --header-timeout passed
                                // before the harness sent on it (a busy machine), seen as a closed channel or,
                                // when the request was already on its way, a reset. Nothing is queued then,
                                // which is all the settling is for.
                            }
                        }
                        return try await body(client, pools)
                    }
                }
            }
        }
    }

    /// Whether `error` is the test client finding its connection closed by the server.
    static func closedByServer(_ error: any Error) -> Bool {
        if let error = error as? ChannelError { return error == .ioOnClosedChannel || error == .eof }
        if let error = error as? IOError { return [ECONNRESET, EPIPE].contains(error.errnoCode) }
        return false
    }

    /// Headers carrying the bearer token of `role` (nil: no Authorization header).
    func headers(_ role: String?, _ extra: HTTPFields = [:]) -> HTTPFields {
        var fields = extra
        if let role { fields[.authorization] = "Bearer \(tokens[role] ?? role)" }
        return fields
    }
}

extension TestResponse {
    /// The body parsed as JSON.
    var json: JSONValue? { try? JSONParser.parse(Array(buffer: body)) }
    /// The body as text.
    var text: String { String(buffer: body) }
}

/// NDJSON of `count` valid events (on 3 subject streams).
func ndjson(_ count: Int, offset: Int = 0) -> ByteBuffer {
    ByteBuffer(string: (0..<count).map { Fixtures.line(stream: "subject-p_\(($0 + offset) % 3)") }.joined(separator: "\n") + "\n")
}
