import ArgumentParser
import LedgerCore
import LedgerPostgres

/// `consent-ledger logs`.
struct Logs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the logs (tenants) with their head position and chain hash.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let heads = try await LedgerDatabase.with(try database.target(), role: .auditor, progress: Console.note) { pool in
            try await EventStore(pool: pool).logs()
        }
        if heads.isEmpty { Console.note("no logs yet: append to create one (consent-ledger append --log NAME --file events.ndjson)") }
        for head in heads {
            try Console.out("\(head.log)\t\(head.position)\t\(LedgerHash.hex(head.chainHash))")
        }
    }
}
