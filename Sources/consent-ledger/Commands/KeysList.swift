import ArgumentParser
import LedgerApplication
import LedgerPostgres

/// `consent-ledger keys list [--log L]`.
struct KeysList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List API keys (id, log, role, label, created, revoked), never their secrets.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Only this log's keys.")
    var log: String?

    func run() async throws {
        let keys = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.keys(log: log)
        }
        if keys.isEmpty { Console.note("no API keys yet: consent-ledger keys create --log L --role ingest|auditor|admin") }
        for key in keys {
            try Console.out([key.keyID, key.log, key.role.rawValue, key.createdAt, key.revokedAt.map { "revoked " + $0 } ?? "active", key.label]
                .joined(separator: "\t"))
        }
    }
}
