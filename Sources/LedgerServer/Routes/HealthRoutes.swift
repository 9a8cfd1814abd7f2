import Hummingbird
import LedgerCore
import LedgerPostgres
import PostgresNIO

/// `GET /health` (the process answers) and `GET /ready` (the database answers too), open to all.
struct HealthRoutes {
    /// The application pool.
    let database: LedgerPool
    /// How long `/ready` waits for a connection: it answers within about this long, whatever the
    /// database does.
    static let readyWait: Duration = .seconds(1)

    func add(to router: Router<LedgerRequestContext>) {
        router.get("health") { _, _ in Response.json(["status": "ok", "software": .string(LedgerSoftware.name)]) }
        router.get("ready") { _, context -> Response in
            do {
                let rows = try await database.waiting(at: Self.readyWait).query("SELECT max(version) FROM ledger.schema_version", logger: context.logger)
                var version: Int?
                for try await value in rows.decode(Int?.self) { version = value }
                return Response.json(["status": "ready", "schemaVersion": version.map { .number(Double($0)) } ?? .null])
            } catch {
                var problem = Problem(.serviceUnavailable, code: "database-unavailable", detail: "the database does not answer",
                                      hint: "The server keeps trying; check the database.")
                problem.headers[.retryAfter] = String(Problem.retryAfterSeconds)
                throw problem
            }
        }
    }
}
