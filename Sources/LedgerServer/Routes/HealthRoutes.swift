import Hummingbird
import LedgerCore
import LedgerPostgres
import PostgresNIO

/// `GET /health` (the process answers) and `GET /ready` (the database answers too), open to all.
struct HealthRoutes {
    let database: PostgresClient

    func add(to router: Router<LedgerRequestContext>) {
        router.get("health") { _, _ in Response.json(["status": "ok", "software": .string(LedgerSoftware.name)]) }
        router.get("ready") { _, context -> Response in
            do {
                let rows = try await database.query("SELECT max(version) FROM ledger.schema_version", logger: context.logger)
                var version: Int?
                for try await value in rows.decode(Int?.self) { version = value }
                return Response.json(["status": "ready", "schemaVersion": version.map { .number(Double($0)) } ?? .null])
            } catch {
                var problem = Problem(.serviceUnavailable, code: "database-unavailable", detail: "the database does not answer",
                                      hint: "The server keeps trying; check the database.")
                problem.headers[.retryAfter] = "5"
                throw problem
            }
        }
    }
}
