import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// The projections the regulator report reads, report_facts and anomalies, brought to the head
/// before the rounds, as `consent-ledger project run` does; the one-off cost the report relies on
/// (decision 0013), timed apart from it.
enum RegulatorProjections {
    /// How the projections were brought to the head.
    struct Setup: Sendable {
        /// Seconds this run spent (nil: they were already at the head).
        var seconds: Double?
        /// Events the rebuild staged, if there was one.
        var eventsStaged: Int?
        /// Seconds of an earlier run's build, from a kept cluster's setup.
        var earlierSeconds: Double?
        /// report_facts rows and anomalies findings of the log, once at the head.
        var factsRows: Int64 = 0
        var findings: Int64 = 0
    }

    /// `project run` for report_facts and anomalies: a rebuild (one pass per projection, two
    /// connections) where they are missing, stale or `force`d, then a catch-up to the head.
    static func bringToHead(admin: LedgerPool, opened: BenchCluster, setup: RegulatorSetup, force: Bool,
                            logger: Logger) async throws -> Setup {
        // The projections the report reads (ReportSource.Projections.regulator).
        let definitions = [ProjectionDefinition.named(.reportFacts), .named(.anomalies)]
        let statuses = try await ProjectionStatus.all(pool: admin, logger: logger).filter { status in
            definitions.contains { $0.name == status.projection }
        }
        let toBuild = force ? definitions : definitions.filter { definition in
            statuses.first { $0.projection == definition.name }?.state != .current
        }
        let lag = statuses.flatMap(\.logs).reduce(0) { $0 + $1.lag }
        var result = Setup(earlierSeconds: setup.projectionSeconds)
        if toBuild.isEmpty, lag == 0 {
            Progress.note("report_facts and anomalies are already at the head")
        } else {
            Progress.note("bringing report_facts and anomalies to the head (" + (toBuild.isEmpty ? "catch-up only"
                : "rebuilding \(toBuild.map(\.name).joined(separator: ", "))") + ")")
            try await BenchSQL.checkpoint(on: admin, logger: logger)
            let watch = Stopwatch()
            if !toBuild.isEmpty {
                let lastNote = LastNote()
                let rebuilt = try await ProjectionRebuilder(pool: admin, logger: logger).rebuild(toBuild) { progress in
                    if !progress.isFinal, lastNote.due(every: 10) { Progress.note("  " + progress.line) }
                }
                result.eventsStaged = rebuilt.events
            }
            try await ProjectionRunner(pool: admin, logger: logger).runOnce(definitions) { Progress.note("  " + $0) }
            let seconds = watch.elapsedSeconds
            result.seconds = seconds
            Progress.note("projections at the head in \(ReportText.fixed(seconds, 1)) s")
            if opened.kept {
                var updated = setup
                updated.projectionSeconds = seconds
                try updated.write(opened.setupFile)
            }
        }
        try await admin.withConnection { connection in
            var binds = PostgresBindings(capacity: 1)
            binds.append(RegulatorBenchmark.log)
            result.factsRows = try await BenchSQL.integer(PostgresQuery(unsafeSQL: "SELECT count(*) FROM report_facts.facts WHERE log_id = $1",
                                                                        binds: binds), on: connection, logger: logger)
            result.findings = try await BenchSQL.integer(PostgresQuery(unsafeSQL: "SELECT count(*) FROM anomalies.findings WHERE log_id = $1",
                                                                       binds: binds), on: connection, logger: logger)
        }
        return result
    }
}

/// Whether a progress note is due (at most one every so many seconds).
private final class LastNote: @unchecked Sendable {
    private let lock = NSLock()
    private let watch = Stopwatch()
    private var last = -Double.infinity

    func due(every seconds: Double) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let now = watch.elapsedSeconds
        guard now - last >= seconds else { return false }
        last = now
        return true
    }
}
