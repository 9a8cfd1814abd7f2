import Hummingbird
import LedgerApplication
import LedgerCore
import Logging

/// The HTTP API of `consent-ledger serve` (docs/http-api.md, docs/openapi.json): the routes under
/// `/v1`, bearer API keys bound to one log and one role, every error as `application/problem+json`.
///
/// The routes parse requests, check the key's role and write answers; every operation is the
/// application layer's (``LedgerOperations``, implemented by ``Ledger``), so the route layer can
/// be tested without a database.
///
/// ```swift
/// let router = LedgerAPI(ledger: ledger, settings: settings).router()
/// let server = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// ```
public struct LedgerAPI: Sendable {
    /// The operations the routes call.
    public let operations: any LedgerOperations
    /// Limits.
    public let settings: ServerSettings
    /// Where requests log.
    public let logger: Logger
    /// The Prometheus registry `GET /metrics` shows (nil: no metrics route).
    public let metrics: ServerMetrics?

    /// An API over a ledger whose pools wait at most `settings.databaseWaitLimit` for a
    /// connection before asking whether the database is up (503 `database-unavailable` when not,
    /// decision 0020), and at most `settings.databaseBusyLimit` in all while it is up but busy
    /// (503 `database-busy`, decision 0055).
    public init(ledger: Ledger, settings: ServerSettings = ServerSettings(), metrics: ServerMetrics? = nil,
                logger: Logger = Logger(label: "consent-ledger.http")) {
        self.init(operations: ledger.waiting(at: settings.databaseWaitLimit, busyAtMost: settings.databaseBusyLimit), settings: settings,
                  metrics: metrics, logger: logger)
    }

    /// An API over any implementation of the operations (tests of the route layer give their own).
    public init(operations: any LedgerOperations, settings: ServerSettings = ServerSettings(), metrics: ServerMetrics? = nil,
                logger: Logger = Logger(label: "consent-ledger.http")) {
        self.operations = operations
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
    }

    /// The router: `/health`, `/ready` and `/metrics` open; everything under `/v1` behind an API key
    /// (the verifiable log's checkpoint, tiles and proofs open too under `serve --public-proofs`).
    public func router() -> Router<LedgerRequestContext> {
        let router = Router(context: LedgerRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: ClientAddressMiddleware(trustedProxies: Set(settings.trustedProxies)))
        router.add(middleware: MetricsMiddleware())
        let allowed = AllowedMethods()
        router.add(middleware: ProblemMiddleware(allowed: allowed))
        router.add(middleware: BodyLimitMiddleware(maxBytes: settings.maxBodyBytes))
        router.add(middleware: QuerySanityMiddleware())
        router.addRoutes(HealthRoutes(operations: operations).collection)
        if let metrics { router.addRoutes(metrics.collection) }
        let admission = AppendAdmission(maxQueued: settings.maxQueuedEvents, maxQueuedPerKey: settings.maxQueuedEventsPerKey)
        let reads = ReadAdmissionMiddleware(admission: ReadAdmission(maxPerKey: settings.maxReadsPerKey))
        let budget = RefusedKeyBudget(perMinute: settings.maxRefusedKeysPerMinute)
        let reports = ReportRoutes(operations: operations, policy: settings.reportPolicy,
                                   admission: ReportAdmission(maxPerLog: settings.maxReportsPerLog))
        router.group("v1")
            .add(middleware: APIKeyMiddleware(operations: operations, budget: budget, logger: logger))
            .add(middleware: reads)
            .addRoutes(EventRoutes(operations: operations, settings: settings, admission: admission).collection)
            .addRoutes(AppStoreRoutes(operations: operations, settings: settings.appStore, admission: admission).collection)
            .addRoutes(SubjectRoutes(operations: operations).collection)
            .addRoutes(FindingsStreamRoutes(operations: operations).collection)
            .addRoutes(SubscriptionRoutes(operations: operations).collection)
            .addRoutes(reports.collection)
        router.group("v1")
            .add(middleware: APIKeyMiddleware(operations: operations, optional: settings.publicProofs, budget: budget, logger: logger))
            .add(middleware: reads)
            .addRoutes(VerifiableLogRoutes(operations: operations, isPublic: settings.publicProofs, entriesArePublic: settings.publicEntries,
                                            witnesses: settings.witnesses).collection)
        router.group("console")
            .add(middleware: ConsoleMiddleware(operations: operations))
            .addRoutes(ConsoleRoutes(operations: operations, budget: budget, reports: reports,
                                     proofs: VerifiableLogRoutes(operations: operations, isPublic: false, entriesArePublic: false,
                                                                 witnesses: settings.witnesses)).collection)
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
