import ArgumentParser
import LedgerCluster
import LedgerPostgres

/// `consent-ledger db start`.
struct DbStart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Create the embedded database if needed, start it, and keep it running.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let cluster = try database.embeddedCluster(creating: true)
        let target = DatabaseTarget.embedded(cluster)
        let startedNow = try cluster.start()
        // Create the ledger database so psql can connect straight away.
        try await LedgerDatabase.with(target, role: .administrator, keepRunning: true) { _ in }
        Console.note(startedNow ? "started the embedded PostgreSQL in \(cluster.directory.path)"
                                : "the embedded PostgreSQL in \(cluster.directory.path) was already running")
        Console.note("psql: psql -h \(cluster.socketDirectory) -p \(cluster.port) -U postgres \(LocalCluster.databaseName)")
    }
}
