import ArgumentParser
import LedgerPostgres

/// `consent-ledger db stop`.
struct DbStop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop the embedded database (its data stays for next time).")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let cluster = try database.embeddedCluster()
        guard case .running = try cluster.status() else {
            Console.note("the embedded PostgreSQL in \(cluster.directory.path) is not running")
            return
        }
        try cluster.stop()
        Console.note("stopped the embedded PostgreSQL in \(cluster.directory.path)")
    }
}
