import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger retention`.
struct Retention: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a retention run (RetentionApplied); with --scope subjectKeys, destroy the named subjects' keys.",
        discussion: """
            The ledger's own record that data was erased under the written retention policy (COPPA 16 CFR \
            312.10). With --scope subjectKeys the keys of the subjects given with --subject are destroyed in \
            the same transaction, as `erase` does for one subject; the other scopes (personalFields, \
            projectionRows, reportExports) record what was done elsewhere. The only way a RetentionApplied is \
            stored: `append` and the HTTP API refuse it (decision 0056). Needs administrator rights (the \
            embedded database has them).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The log (tenant).")
    var log: String

    @Option(help: "The retention policy applied (an identifier, such as retention-2026-01).")
    var policy: String

    @Option(help: "What was erased: subjectKeys, personalFields, projectionRows or reportExports.")
    var scope: String

    @Option(help: "Why: retentionPeriodElapsed, purposeFulfilled, accountClosed or erasureRequest.")
    var reason: String

    @Option(help: "Data recorded before this instant (RFC 3339) was in scope, when the policy works by age.")
    var cutoff: String?

    @Option(name: .customLong("subject"), help: "A subject affected (repeat for each); with --scope subjectKeys, their keys are destroyed.")
    var subjects: [String] = []

    @Option(help: "The pseudonym of the operator who runs it (recorded as the event's actor).")
    var operatorId: String?

    func validate() throws {
        if scope == RetentionApplied.Scope.subjectKeys.rawValue, subjects.isEmpty {
            throw ValidationError("--scope subjectKeys destroys the keys of the subjects it names: give --subject for each")
        }
    }

    func run() async throws {
        let retention = try RetentionRun.event(policyId: policy, scope: scope, reason: reason, cutoff: cutoff, subjects: subjects,
                                               operatorId: operatorId)
        let appended = try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            try await ledger.applyRetention(log: log, retention: retention)
        }
        let keys = scope == RetentionApplied.Scope.subjectKeys.rawValue && !subjects.isEmpty ? "; \(subjects.count) subject keys destroyed" : ""
        Console.note("applied retention policy \(policy) in log \(log)\(keys); RetentionApplied recorded at position \(appended.position)")
    }
}
