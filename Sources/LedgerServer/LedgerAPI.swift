import Hummingbird
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// The HTTP API of `consent-ledger serve` (docs/http-api.md): the routes under `/v1`, bearer API
/// keys bound to one log and one role, every error as `application/problem+json`.
///
/// ```swift
/// let router = LedgerAPI(application: app, auditor: auditor, administrator: admin).router()
/// let server = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// ```
public struct LedgerAPI: Sendable {
    /// The application role's pool: appends, reads, API-key checks.
    public let application: LedgerPool
    /// The auditor role's pool: state, reports.
    public let auditor: LedgerPool
    /// The owner's pool: erasure.
    public let administrator: LedgerPool
    /// Limits.
    public let settings: ServerSettings
    /// Where requests log.
    public let logger: Logger
    /// The Prometheus registry `GET /metrics` shows (nil: no metrics route).
    public let metrics: ServerMetrics?

    /// An API over three running pools; a request waits for a connection of any of them at most
    /// `settings.databaseWaitLimit`.
    public init(application: LedgerPool, auditor: LedgerPool, administrator: LedgerPool,
                settings: ServerSettings = ServerSettings(), metrics: ServerMetrics? = nil,
                logger: Logger = Logger(label: "consent-ledger.http")) {
        self.application = application.waiting(at: settings.databaseWaitLimit)
        self.auditor = auditor.waiting(at: settings.databaseWaitLimit)
        self.administrator = administrator.waiting(at: settings.databaseWaitLimit)
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
    }

    /// The router: `/health`, `/ready` and `/metrics` open; everything under `/v1` behind an API key.
    public func router() -> Router<LedgerRequestContext> {
        let router = Router(context: LedgerRequestContext.self)
        router.add(middleware: MetricsMiddleware())
        let allowed = AllowedMethods()
        router.add(middleware: ProblemMiddleware(allowed: allowed))
        router.add(middleware: BodyLimitMiddleware(maxBytes: settings.maxBodyBytes))
        router.add(middleware: QuerySanityMiddleware())
        HealthRoutes(database: application).add(to: router)
        metrics?.add(to: router)
        let v1 = router.group("v1").add(middleware: APIKeyMiddleware(keys: APIKeyStore(pool: application, logger: logger)))
        let store = EventStore(pool: application, logger: logger)
        let admission = AppendAdmission(maxQueued: settings.maxQueuedEvents, maxQueuedPerKey: settings.maxQueuedEventsPerKey)
        EventRoutes(store: store, settings: settings, group: GroupCommit(store: store), admission: admission).add(to: v1)
        AppStoreRoutes(store: store, settings: settings.appStore, admission: admission).add(to: v1)
        SubjectRoutes(auditor: auditor, admin: administrator).add(to: v1)
        ReportRoutes(auditor: auditor, policy: settings.reportPolicy).add(to: v1)
        allowed.record(router.routes.map { ($0.path.description, $0.method.rawValue) })
        return router
    }
}

/// Refuses a body whose declared length is over the limit before reading it (the routes also
/// stop reading at the limit, for bodies sent without a length).
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = LedgerRequestContext
    let maxBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBytes {
            throw Problem(.contentTooLarge, code: "body-too-large", detail: "the body is \(length) bytes; at most \(maxBytes)",
                          hint: "Send fewer events per request.")
        }
        return try await next(request, context)
    }
}
