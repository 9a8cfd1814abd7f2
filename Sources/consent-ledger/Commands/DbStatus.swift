import ArgumentParser
import Foundation
import LedgerCluster
import LedgerCore
import LedgerPostgres

/// `consent-ledger db status`.
struct DbStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say whether the embedded database exists and runs, and how to reach it.",
        discussion: "Exit status: 0 running, 3 stopped, 4 not created yet (as pg_ctl status).")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let cluster: LocalCluster
        do {
            cluster = try database.embeddedCluster()
        } catch let error as LedgerError where error.code == .clusterFailure {
            try Console.out("status:  not created: \(error.message)")
            if let hint = error.hint { try Console.out("         \(hint)") }
            throw ExitCode(4)
        }
        try Console.out("folder:  \(cluster.directory.path)")
        try Console.out("socket:  \(cluster.socketPath)")
        switch try cluster.status() {
        case .notCreated:
            try Console.out("status:  not created (`consent-ledger migrate` or `consent-ledger db start` creates it)")
            throw ExitCode(4)
        case .stopped:
            try Console.out("status:  stopped (start it with `consent-ledger db start`)")
            throw ExitCode(3)
        case .running(let pid):
            try Console.out("status:  running (pid \(pid))")
            try Console.out("psql:    psql -h \(cluster.socketDirectory) -p \(cluster.port) -U postgres \(LocalCluster.databaseName)")
        }
    }
}
