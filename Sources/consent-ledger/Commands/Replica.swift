import ArgumentParser
import Foundation
import LedgerCore
import LedgerPostgres

/// `consent-ledger replica publish | subscribe | status`: a reporting replica fed by logical
/// replication (docs/deployment.md, "Reads away from the primary"; decision 0053).
struct Replica: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Feed a separate PostgreSQL the log by logical replication, for reports away from the primary.",
        discussion: """
            `publish` (on the primary, whose wal_level must be logical) publishes the log's tables; \
            `subscribe` (on a new database, migrated first) subscribes to them, and `status` shows how far \
            the replica is. Then run `project run`, `report`, `verify`, `replay` and `state` against the \
            replica: as of any position it holds, their answers are the primary's, byte for byte.
            """,
        subcommands: [ReplicaPublish.self, ReplicaSubscribe.self, ReplicaStatus.self]
    )
}

/// `consent-ledger replica publish`.
struct ReplicaPublish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "On the primary: publish the log's tables for reporting replicas (re-runnable).")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let target = try database.target()
        try await LedgerDatabase.with(target, role: .administrator, progress: Console.note) { pool in
            try await ReportingReplica.publish(pool: pool)
        }
        Console.note("published \(ReportingReplica.tables.count) tables as \(ReportingReplica.publication) in \(target.displayName)")
    }
}

/// `consent-ledger replica subscribe`.
struct ReplicaSubscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "On a new, migrated database: subscribe to the primary's published log.",
        discussion: """
            The replica's own PostgreSQL connects to the primary with --publisher (a URL its server can \
            reach, as a role that may replicate). It copies what is there, then receives every commit. \
            From then on the replica refuses appends of its own.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The primary, as the replica's server reaches it.", valueName: "postgres://user:password@host:port/database"))
    var publisher: String

    func run() async throws {
        _ = try PostgresURL(publisher)  // a clear error for a malformed URL, before PostgreSQL sees it
        let target = try database.target()
        try await LedgerDatabase.with(target, role: .administrator, progress: Console.note) { pool in
            try await ReportingReplica.subscribe(pool: pool, publisher: publisher)
        }
        Console.note("\(target.displayName) subscribes to \(ReportingReplica.publication); `consent-ledger replica status --publisher …` shows when it has caught up")
    }
}

/// `consent-ledger replica status`.
struct ReplicaStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Each log's head on the primary and on this replica; exit 0 when caught up, 3 when not yet.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The primary, as this command reaches it.", valueName: "postgres://user:password@host:port/database"))
    var publisher: String

    @Option(help: ArgumentHelp("Wait up to this many seconds for the replica to catch up.", valueName: "seconds"))
    var wait: Int = 0

    func run() async throws {
        let primary = DatabaseTarget.external(try PostgresURL(publisher))
        let replica = try database.target()
        let deadline = Date().addingTimeInterval(TimeInterval(wait))
        let status = try await LedgerDatabase.with(primary, role: .auditor, progress: Console.note) { primaryPool in
            try await LedgerDatabase.with(replica, role: .administrator, progress: Console.note) { replicaPool in
                var status = try await ReportingReplica.status(primary: primaryPool, replica: replicaPool)
                while !status.caughtUp, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                    status = try await ReportingReplica.status(primary: primaryPool, replica: replicaPool)
                }
                return status
            }
        }
        for log in status.logs {
            try Console.out("\(log.log)\tprimary \(log.primary)\treplica \(log.replica)\t\(log.primary == log.replica ? "caught up" : "\(log.primary - log.replica) behind")")
        }
        if status.copying > 0 { Console.note("\(status.copying) tables are still being copied") }
        if !status.caughtUp { throw ExitCode(3) }
    }
}
