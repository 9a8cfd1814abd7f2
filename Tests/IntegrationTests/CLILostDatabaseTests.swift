import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The command line when the database is gone, hung, or lost in the middle of a commit (issue 17).
@Suite("The command line and a lost database")
struct CLILostDatabaseTests {
    /// Runs the tool off the test's threads, so the test can act on the database meanwhile.
    static func runInBackground(_ arguments: [String], input: String, timeout: Int) async throws -> CLIRunner.Outcome {
        try await CLIRunner.run(arguments, input: input, timeout: timeout)
    }

    @Test("a stopped server: a clear error at once, naming the target and how to fix it")
    func stoppedServer() async throws {
        let port = try TCPListener.freePort()
        let outcome = try await CLIRunner.run(["append", "--log", "acme", "--database-url", "postgres://consent_ledger_app@127.0.0.1:\(port)/consent_ledger", "-"],
                                        input: Fixtures.line(), timeout: 30)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: cannot connect to consent_ledger_app@127.0.0.1:\(port)/consent_ledger"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("connection refused"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("consent-ledger db start"), "says how to start the embedded database: \(outcome.stderr)")
        #expect(outcome.stderr.contains("--database-url"), "says which URL to check: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("ConnectionPoolError"), "\(outcome.stderr)")
    }

    @Test("a server that accepts connections and never answers: a clear error within a bound, not a hang")
    func silentServer() async throws {
        let listener = try TCPListener()
        let outcome = try await CLIRunner.run(["append", "--log", "acme", "--database-url",
                                         "postgres://consent_ledger_app@127.0.0.1:\(listener.port)/consent_ledger", "-"],
                                        input: Fixtures.line(), timeout: 30)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: no answer from consent_ledger_app@127.0.0.1:\(listener.port)/consent_ledger"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("pg_isready") && outcome.stderr.contains("--database-url"), "says what to check: \(outcome.stderr)")
    }

    @Test("the connection lost while COMMIT is in flight: the outcome is unknown, never 'nothing was stored'; running it again is safe")
    func lostDuringCommit() async throws {
        let db = try await TestDatabase.create()
        // COMMIT runs this deferred trigger before it commits: the append's COMMIT is sent and
        // waits here, unanswered, until the backend is terminated from another session.
        try await db.as(.administrator) { pool in
            _ = try await pool.raw(#"""
                CREATE FUNCTION public.test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(120); RETURN NULL; END $$
                """#)
            _ = try await pool.raw("""
                CREATE CONSTRAINT TRIGGER test_slow_commit AFTER INSERT ON ledger.events
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.test_slow_commit()
                """)
        }
        let app = try CLITests.url(db, user: "consent_ledger_app")
        let arguments = ["append", "--log", "acme", "--database-url", app, "-"]
        let input = Fixtures.line()
        async let run = Self.runInBackground(arguments, input: input, timeout: 120)
        let terminated = try await db.as(.administrator) { pool in
            for _ in 0..<600 {
                let rows = try await pool.raw("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = \(db.name) AND query = 'COMMIT' AND wait_event = 'PgSleep'
                    """)
                if !rows.isEmpty { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }
        let outcome = try await run
        #expect(terminated, "the append's COMMIT was never seen waiting: \(outcome.stderr)")
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("the outcome is unknown: the batch may or may not have been stored"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Running the same command again is safe"), "\(outcome.stderr)")
        #expect(!outcome.stderr.lowercased().contains("nothing was stored"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("nothing of this batch was"), "\(outcome.stderr)")

        // Running it again is safe: stored once, whatever the first run's outcome was.
        try await db.as(.administrator) { pool in _ = try await pool.raw("DROP TRIGGER test_slow_commit ON ledger.events") }
        let again = try await CLIRunner.run(arguments, input: input, timeout: 120)
        #expect(again.status == 0, "\(again.stderr)")
        let third = try await CLIRunner.run(arguments, input: input, timeout: 120)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stderr.contains("already in the ledger"), "\(third.stderr)")
        try await db.as(.auditor) { pool async throws in
            #expect(try await pool.int("SELECT count(*) FROM ledger.events") == 1)
        }
    }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts or answers: to a client, a server
/// that is hung. (`freePort()`: a port nothing listens on, as when the server is stopped.)
final class TCPListener: @unchecked Sendable {
    let socket: Int32
    let port: Int

    struct Failed: Error, CustomStringConvertible { let description: String }

    init(listening: Bool = true) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failed(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                Glibc.bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound, !listening || Glibc.listen(socket, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw Failed(description: "bind/listen on 127.0.0.1: \(reason)")
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { Glibc.close(socket) }

    /// A port on 127.0.0.1 that nothing listens on (bound a moment, then released).
    static func freePort() throws -> Int { try TCPListener(listening: false).port }
}
