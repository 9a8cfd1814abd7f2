import LedgerCore
import LedgerPostgres

extension Ledger {
    /// Folds `log` again into private temporary tables, projection by projection, to the position
    /// each live projection has reached, and compares every table with the live one
    /// (``ProjectionProof``): what `consent-ledger verify --projections` runs. What was found is
    /// recorded in `ledger.verifications` (scope `projections`, the position every projection was
    /// proven to) with who ran it (`by`), where the regulator report's integrity section reads it.
    /// `progress` hears each projection as it starts, and that nothing was recorded when the
    /// application pool's role only reads.
    public func proveProjections(log: String, by: String,
                                 progress: @Sendable (String) -> Void = { _ in }) async throws -> [ProjectionProof.Outcome] {
        let outcomes = try await ProjectionProof(pool: pools.auditor, logger: logger).check(log: log, progress: progress)
        let failed = outcomes.first { !$0.passed }
        let summary = failed.map { "projection \($0.projection) failed: \($0.problem ?? "")" }
            ?? "every projection equals the log folded again: " + outcomes.map { "\($0.projection) to \($0.position)" }.joined(separator: ", ")
        let record = VerificationRecord(scope: "projections", passed: failed == nil, eventsChecked: outcomes.reduce(0) { $0 + $1.rows },
                                        headPosition: outcomes.map(\.position).min() ?? 0, summary: summary, verifiedBy: by)
        if !(try await VerificationRecord.record(record, log: log, pool: pools.application, logger: logger)) {
            progress(VerificationRecord.notRecordedNote)
        }
        return outcomes
    }
}
