import Hummingbird
import LedgerAPIModel
import LedgerApplication
import LedgerCore

/// `GET /health` (the process answers) and `GET /ready` (the database answers too, and every role's
/// pool hands out a connection within ``readyWait``: a starved pool is 503 `database-busy`
/// naming its role), open to all.
struct HealthRoutes {
    let operations: any LedgerOperations
    /// How long `/ready` waits for a connection: it answers within about this long, whatever the
    /// database does.
    static let readyWait: Duration = .seconds(1)

    var collection: RouteCollection<LedgerRequestContext> {
        let routes = RouteCollection(context: LedgerRequestContext.self)
        routes.get("health") { _, _ in try Response.json(APIModel.Health(software: LedgerSoftware.product)) }
        routes.get("ready") { _, _ -> Response in
            do {
                return try Response.json(APIModel.Ready(schemaVersion: try await operations.schemaVersion(within: Self.readyWait)))
            } catch let error as LedgerError where error.code == .databaseBusy {
                throw Problem(error)
            } catch {
                var problem = Problem(.serviceUnavailable, code: "database-unavailable", detail: "the database does not answer",
                                      hint: "The server keeps trying; check the database.")
                problem.headers[.retryAfter] = String(Problem.retryAfterSeconds)
                throw problem
            }
        }
        return routes
    }
}
