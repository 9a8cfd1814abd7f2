import LedgerCore
import PostgresNIO

extension ProjectionRunner {
    /// Throws `immutability-violation` when the pool's role may not act as the projector, so may
    /// not fold: `serve` connected as the application
    /// role on a server of the user's own (decision 0070). Says how to run the folds instead.
    public func requireRightToFold() async throws {
        let rows = try await pool.query("SELECT current_user::text, pg_has_role(\(ProjectionSchema.projector), 'MEMBER')")
        for try await (role, member) in rows.decode((String, Bool).self) where !member {
            throw LedgerError(.immutabilityViolation,
                              "the database role \(role) may not write the projections, so this process cannot keep them up",
                              hint: "Start serve with --no-projections and keep them up with `consent-ledger project run --follow` "
                                  + "connected as \(ProjectionSchema.projector) (docs/operations.md, \"Who may do what\").")
        }
    }
}
