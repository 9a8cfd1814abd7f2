import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger logs`.
struct Logs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the logs (tenants) with their head position and chain hash.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let heads = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.logs()
        }
        if heads.isEmpty { Console.note("no logs yet: append to create one (consent-ledger append --log NAME --file events.ndjson)") }
        for head in heads {
            try Console.out("\(head.log)\t\(head.position)\t\(LedgerHash.hex(head.chainHash))")
        }
    }
}
