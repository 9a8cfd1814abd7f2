import LedgerCore
/// The limits and address of `consent-ledger serve`.
public struct ServerSettings: Sendable {
    /// The default largest request body: 4 MiB.
    public static let defaultMaxBodyBytes = 4 << 20
    /// The default largest batch: 1,000 events.
    public static let defaultMaxBatchEvents = 1_000

    /// The address to listen on.
    public var host: String
    /// The port (0: any free port).
    public var port: Int
    /// The largest request body accepted; larger ones get 413.
    public var maxBodyBytes: Int
    /// The most events one append may carry; more get 413.
    public var maxBatchEvents: Int
    /// The most events admitted and not yet committed, in all: beyond, 503 with Retry-After.
    public var maxQueuedEvents: Int
    /// The most events one API key may have admitted and not yet committed: beyond, 429 with
    /// Retry-After (nil: half of ``maxQueuedEvents``).
    public var maxQueuedEventsPerKey: Int?
    /// How App Store notifications are verified (nil: the notification route answers 501).
    public var appStore: AppStoreSettings?
    /// The policy the reports apply and the issuer and date of issue their HTML pages name
    /// (`serve --report-policy FILE`; default: the built-in policy, no issuer named).
    public var reportPolicy: ReportPolicy
    /// Whether the verifiable log's routes (checkpoint, tiles, proofs) answer requests without an
    /// API key (`serve --public-proofs`); events and reports always need one.
    public var publicProofs = false
    /// Whether, with ``publicProofs``, entry bundles and inclusion proofs, which carry the records
    /// themselves, are answered without an API key too (`serve --public-entries`); off by default:
    /// without it a public server publishes hashes, not children's data.
    public var publicEntries = false
    /// The proxies (IP addresses) whose `X-Forwarded-For` names the client (`serve --trusted-proxy`);
    /// from any other peer the header is ignored. None by default.
    public var trustedProxies: [String] = []
    /// The witnesses whose cosignatures `POST /v1/logs/{log}/checkpoint/cosignatures` accepts and
    /// stores (`serve --witness KEY`, type ``NoteKeyType/cosignatureV1``); none by default.
    public var witnesses: [NoteVerifierKey] = []
    /// How long a request waits for a database connection before it is answered 503 with
    /// `Retry-After` (`database-unavailable`): the bound on a request while the database is down.
    public var databaseWaitLimit: Duration = ServerSettings.defaultDatabaseWaitLimit
    /// How long the server waits for a request's head, its body and the next request on a
    /// kept-alive connection, and how many connections it keeps open (decision 0026).
    public var timeouts = RequestTimeouts()
    /// The default wait for a database connection: 2 s.
    public static let defaultDatabaseWaitLimit: Duration = .seconds(2)
    /// The longest a request waits for a database connection while the database is up but every
    /// connection of its role's pool is in use; then 503 `database-busy` with `Retry-After`
    /// (`serve --max-database-wait`, decision 0055).
    public var databaseBusyLimit: Duration = ServerSettings.defaultDatabaseBusyLimit
    /// The default bound on a wait for a busy pool: 10 s.
    public static let defaultDatabaseBusyLimit: Duration = .seconds(10)
    /// The most reads (`GET` requests under `/v1`) one API key may have under way at once,
    /// streamed answers until their last byte; beyond, 429 with `Retry-After`
    /// (`serve --max-reads-per-key`, decision 0055).
    public var maxReadsPerKey: Int = ServerSettings.defaultMaxReadsPerKey
    /// The default bound on one key's reads under way: 4, fewer than the auditor pool's 6
    /// connections, so one key never holds them all.
    public static let defaultMaxReadsPerKey = 4
    /// The most API keys one client may offer that are not accepted, within a minute; beyond,
    /// 429 `too-many-refused-keys` before any lookup (`serve --max-refused-keys-per-minute`).
    public var maxRefusedKeysPerMinute: Int = ServerSettings.defaultMaxRefusedKeysPerMinute
    /// The default: 30 refused keys a minute per client.
    public static let defaultMaxRefusedKeysPerMinute = 30
    /// The most reports (consent register, regulator report, dossier) of one log computed at once,
    /// whichever keys or console sessions ask; beyond, 429 with `Retry-After`
    /// (`serve --max-reports-per-log`, ``ReportAdmission``).
    public var maxReportsPerLog: Int = ServerSettings.defaultMaxReportsPerLog
    /// The default: one report per log at a time.
    public static let defaultMaxReportsPerLog = 1

    /// Settings; the defaults listen on 127.0.0.1:8080.
    public init(host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = defaultMaxBodyBytes,
                maxBatchEvents: Int = defaultMaxBatchEvents, maxQueuedEvents: Int = AppendAdmission.defaultMaxQueuedEvents,
                maxQueuedEventsPerKey: Int? = nil, appStore: AppStoreSettings? = nil, reportPolicy: ReportPolicy = .defaults) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxBatchEvents = maxBatchEvents
        self.maxQueuedEvents = maxQueuedEvents
        self.maxQueuedEventsPerKey = maxQueuedEventsPerKey
        self.appStore = appStore
        self.reportPolicy = reportPolicy
    }
}
