import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LedgerCore
import LedgerPostgres
import Testing

/// `consent-ledger serve` (projections on) while its database is stopped and started again under
/// 32 clients: a real server process, a real embedded cluster stopped and started again.
@Suite("consent-ledger serve, the database restarted under load")
struct DatabaseRestartTests {
    @Test("database stopped and started under 32 clients: 503 with Retry-After meanwhile, never a 500 or a hang; appends again after; SIGTERM stops it; nothing acknowledged lost",
          .timeLimit(.minutes(5)))
    func databaseRestartUnderLoad() async throws {
        let project = try await CLIFirstHourTests.embeddedProject(events: 1)
        defer { CLIFirstHourTests.remove(project) }
        let dataDir = project.appendingPathComponent(".consent-ledger").path
        // Started here, so that the server does not own it (and stop it when it ends). In-process:
        // a `db start` run as a child of this test keeps the test waiting, since the postmaster it
        // leaves running inherits the descriptor Foundation's Process watches for the child's exit.
        let cluster = CLIFirstHourTests.cluster(of: project)
        // pg_ctl waits: on a thread of its own, not one of Swift concurrency's (CLIRunner.onOwnThread).
        _ = try await CLIRunner.onOwnThread { try cluster.start() }
        let created = try await CLIRunner.run(["keys", "create", "--log", "acme", "--role", "ingest", "--data-dir", dataDir])
        try #require(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let server = try ServerProcess.start(["serve", "--port", "0", "--data-dir", dataDir])
        defer { server.kill() }
        let port = try await server.port()
        let answers = Answers()
        let stop = StopFlag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    while !stop.isSet {
                        let id = UUID().uuidString.lowercased()
                        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/logs/acme/events")!, timeoutInterval: 30)
                        request.httpMethod = "POST"
                        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                        request.httpBody = Data(Fixtures.line(id: id).utf8)
                        do {
                            let (_, response) = try await URLSession.shared.data(for: request)
                            let http = response as? HTTPURLResponse
                            answers.record(status: http?.statusCode ?? 0, id: id, retryAfter: http?.value(forHTTPHeaderField: "Retry-After"))
                            if http?.statusCode == 503 { try await Task.sleep(for: .milliseconds(200)) }
                        } catch {
                            answers.record(failure: "\(error)")
                            if stop.isSet { return }
                        }
                    }
                }
            }
            // Appends flow; then the database goes away for a few seconds, and comes back.
            try await answers.wait(until: { $0.acknowledged.count >= 50 })
            try await CLIRunner.onOwnThread { try cluster.stop() }
            try await answers.wait(until: { $0.statuses[503, default: 0] >= 32 })
            _ = try await CLIRunner.onOwnThread { try cluster.start() }
            let before = answers.snapshot.acknowledged.count
            try await answers.wait(until: { $0.acknowledged.count >= before + 50 })  // served again, by itself
            server.terminate()
            let status = await server.waitForExit()
            stop.set()
            try await group.waitForAll()
            #expect(status == 0, "serve exited with \(status) (-1: still running 30 s after SIGTERM)")
            if status != 0 || answers.snapshot.statuses[500] != nil { print("serve's log:\n" + server.output) }
        }
        let seen = answers.snapshot
        #expect(Set(seen.statuses.keys).isSubset(of: [201, 503]), "statuses: \(seen.statuses)")
        #expect(seen.unavailableWithoutRetryAfter == 0, "\(seen.unavailableWithoutRetryAfter) answers of 503 had no Retry-After")
        // Requests that failed without an answer: only those cut by the server's own exit at the end.
        #expect(!seen.failures.contains { $0.contains("timed out") }, "requests hung: \(seen.failures.prefix(3))")
        let ids = seen.acknowledged
        let stored = try await LedgerDatabase.with(.embedded(CLIFirstHourTests.cluster(of: project)), role: .auditor) { pool in
            try await pool.int("SELECT count(*) FROM ledger.events WHERE log_id = 'acme' AND event_id = ANY(\(ids.compactMap(UUID.init(uuidString:))))")
        }
        #expect(stored == Int64(ids.count), "every acknowledged event is stored")
    }

    /// What the clients heard.
    final class Answers: @unchecked Sendable {
        struct Seen {
            var statuses: [Int: Int] = [:]
            var acknowledged: [String] = []
            var unavailableWithoutRetryAfter = 0
            var failures: [String] = []
        }
        private let lock = NSLock()
        private var seen = Seen()
        var snapshot: Seen { lock.withLock { seen } }

        func record(status: Int, id: String, retryAfter: String?) {
            lock.withLock {
                seen.statuses[status, default: 0] += 1
                if status == 201 { seen.acknowledged.append(id) }
                if status == 503, retryAfter == nil { seen.unavailableWithoutRetryAfter += 1 }
            }
        }

        func record(failure: String) { lock.withLock { seen.failures.append(failure) } }

        /// Waits until `condition` holds (the suite's time limit bounds it).
        func wait(until condition: (Seen) -> Bool) async throws {
            while !condition(snapshot) { try await Task.sleep(for: .milliseconds(50)) }
        }
    }
}
