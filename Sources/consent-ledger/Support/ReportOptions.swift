import ArgumentParser
import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// The options every report takes: the moment it is computed at and the policy file.
struct ReportOptions: ParsableArguments {
    @Option(name: .customLong("as-of"),
            help: ArgumentHelp("A log position, or a day or RFC 3339 time read on the ledger's clock: the report is then computed "
                                   + "at the last position recorded by that moment (default: the head).",
                               valueName: "position|time"))
    var asOf: String?

    @Option(help: ArgumentHelp("A JSON policy file: issuer {organisation, contact}, dateOfIssue (YYYY-MM-DD), and for the regulator report "
                                   + "policyId, policyVersion, rules, rescissionEnforcementWindowHours, ageSignalRecheckDays "
                                   + "and retention {policyId, statement} (docs/reports.md).",
                               valueName: "file"))
    var policy: String?

    init() {}

    /// Options naming only a policy file (for `serve --report-policy`).
    init(policy: String?) { self.policy = policy }

    /// The position to compute at: the given one, the one recorded by the given time, or nil (the head).
    func position(log: String, ledger: Ledger) async throws -> Int64? {
        guard let asOf = asOf?.trimmingCharacters(in: .whitespaces), !asOf.isEmpty, asOf != "head" else { return nil }
        if asOf.allSatisfy(\.isNumber) {
            guard let position = Int64(asOf) else { throw ValidationError("--as-of \(asOf) is out of range") }
            return position
        }
        return try await ledger.position(log: log, recordedBy: try ReportTime.parse(asOf, option: "as-of"))
    }

    /// Checks `--as-of` before any work: a position, a day or a time.
    func validate() throws {
        guard let asOf = asOf?.trimmingCharacters(in: .whitespaces), !asOf.isEmpty, asOf != "head", !asOf.allSatisfy(\.isNumber) else { return }
        _ = try ReportTime.parse(asOf, option: "as-of")
    }

    /// The policy file's contents, or the defaults without one; errors name the option as the
    /// command spells it (`--policy`, `serve`'s `--report-policy`).
    func loadPolicy(option: String = "policy") throws -> ReportPolicy {
        guard let policy else { return .defaults }
        guard let data = FileManager.default.contents(atPath: policy) else {
            throw LedgerError(.invalidRequest, "--\(option) \(policy): no such file, or it cannot be read", field: option,
                              hint: "Give the path of a JSON policy file (docs/reports.md), or leave --\(option) out for the defaults.")
        }
        do {
            return try ReportPolicy.parse(Array(data))
        } catch {
            var located = error
            located.message = "--\(option) \(policy): " + error.message
            throw located
        }
    }
}
