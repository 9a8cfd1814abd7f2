import LedgerCore
import LedgerPostgres
import Testing

@Suite("Database URLs")
struct PostgresURLTests {
    @Test("TCP with user, password, port and database")
    func tcp() throws {
        let url = try PostgresURL("postgres://app:s%40cret@db.example:6543/ledger?sslmode=require")
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.username == "app")
        #expect(url.password == "s@cret")
        #expect(url.database == "ledger")
        #expect(url.requireTLS)
    }

    @Test("a Unix socket folder in libpq's host= form")
    func socket() throws {
        let url = try PostgresURL("postgresql:///consent_ledger?host=/var/run/postgresql&user=ledger")
        #expect(url.socketDirectory == "/var/run/postgresql")
        #expect(url.host == nil)
        #expect(url.username == "ledger")
        #expect(url.database == "consent_ledger")
        #expect(!url.requireTLS)
    }

    @Test("not a postgres URL, or an unknown sslmode, says how to write one", arguments: ["mysql://x/y", "localhost:5432", "postgres://h/db?sslmode=sometimes"])
    func refused(text: String) {
        let error = #expect(throws: LedgerError.self) { _ = try PostgresURL(text) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.hint != nil)
    }
}
