import LedgerPostgres

extension Ledger {
    /// Folds `log` again into private temporary tables, projection by projection, to the position
    /// each live projection has reached, and compares every table with the live one
    /// (``ProjectionProof``): what `consent-ledger verify --projections` runs. `progress` hears each
    /// projection as it starts.
    public func proveProjections(log: String, progress: @Sendable (String) -> Void = { _ in }) async throws -> [ProjectionProof.Outcome] {
        try await ProjectionProof(pool: pools.auditor, logger: logger).check(log: log, progress: progress)
    }
}
