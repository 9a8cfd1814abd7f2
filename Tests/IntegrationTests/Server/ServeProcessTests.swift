import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LedgerCore
import LedgerPostgres
import Testing

/// `consent-ledger serve` as a real process on a real socket: SIGTERM in the middle of a stream of
/// appends loses none that were acknowledged.
@Suite("consent-ledger serve, the process")
struct ServeProcessTests {
    @Test("SIGTERM during a stream of appends: the server exits cleanly and every acknowledged event is stored")
    func sigtermLosesNothing() async throws {
        let db = try await TestDatabase.create()
        let token = try await db.as(.administrator) { client in
            try await APIKeyStore(pool: client).create(log: "acme", role: .ingest).1
        }
        let server = try ServerProcess.start(["serve", "--port", "0", "--no-projections",
                                              "--database-url", try CLITests.url(db, user: "postgres")])
        defer { server.kill() }
        let port = try await server.port()

        let acknowledged = AcknowledgedIDs()
        let stop = StopFlag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while !stop.isSet {
                        let id = UUID().uuidString.lowercased()
                        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/logs/acme/events")!)
                        request.httpMethod = "POST"
                        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                        request.httpBody = Data(Fixtures.line(id: id).utf8)
                        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return }  // the server is gone
                        if (response as? HTTPURLResponse)?.statusCode == 201 { acknowledged.add(id) }
                    }
                }
            }
            // Let appends flow, then ask the server to stop while they are still coming.
            while acknowledged.count < 20 { try await Task.sleep(for: .milliseconds(20)) }
            server.terminate()
            let status = await server.waitForExit()
            stop.set()
            try await group.waitForAll()
            #expect(status == 0, "serve exited with \(status): \(server.output)")
        }
        #expect(server.output.contains("stopped"))
        let ids = acknowledged.all
        #expect(ids.count >= 20)
        let stored = try await db.as(.auditor) { client in
            try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme' AND event_id = ANY(\(ids.compactMap(UUID.init(uuidString:))))")
        }
        #expect(stored == Int64(ids.count), "every acknowledged event is stored")
    }
}

/// The ids of the events the server acknowledged (201).
final class AcknowledgedIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    func add(_ id: String) { lock.withLock { ids.append(id) } }
    var count: Int { lock.withLock { ids.count } }
    var all: [String] { lock.withLock { ids } }
}

/// A flag the test sets and the clients poll.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// The built `consent-ledger` running in the background, its standard error and output in a file.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let errorFile: URL

    static func start(_ arguments: [String]) throws -> ServerProcess {
        let server = ServerProcess(errorFile: FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log"))
        _ = FileManager.default.createFile(atPath: server.errorFile.path, contents: nil)
        server.process.executableURL = try CLIRunner.executable()
        server.process.arguments = arguments
        // Standard output too: the server's log (a request that failed, a projection pass) goes there.
        let log = try FileHandle(forWritingTo: server.errorFile)
        server.process.standardOutput = log
        server.process.standardError = log
        try server.process.run()
        return server
    }

    private init(errorFile: URL) { self.errorFile = errorFile }

    var output: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// The port from the `listening on http://host:port` line, waiting up to 30 s for it.
    func port() async throws -> Int {
        for _ in 0..<300 {
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
               let port = Int(line.split(separator: ":").last ?? "") { return port }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        struct NotListening: Error, CustomStringConvertible { let description: String }
        throw NotListening(description: "serve did not start listening: \(output)")
    }

    func terminate() { process.terminate() }   // SIGTERM

    func kill() { if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) } }

    func waitForExit() async -> Int32 {
        for _ in 0..<600 where process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        return process.isRunning ? -1 : process.terminationStatus
    }
}
