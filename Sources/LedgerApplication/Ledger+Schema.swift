import LedgerPostgres

extension Ledger {
    /// Creates or updates the schema (re-runnable; refuses a database whose schema is newer than
    /// this software's), as the owner.
    @discardableResult
    public func migrate() async throws -> Migrator.Outcome {
        try await (try Migrator(pool: pools.administrator, logger: logger)).migrate()
    }
}
