import ArgumentParser
import Foundation
import Hummingbird
import LedgerApplication
import LedgerCore
import LedgerPostgres
import LedgerServer
import Logging
import ServiceLifecycle
import LedgerAppStore

/// `consent-ledger serve`: the HTTP API.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API (docs/http-api.md), keeping the projections caught up in the same process.",
        discussion: """
            Routes under /v1 need an API key (consent-ledger keys create): Authorization: Bearer <key>. Each \
            key is bound to one log and one role: ingest (append), auditor (read, state, reports), admin \
            (everything, and erase). /health and /ready are open. Errors are application/problem+json. \
            SIGTERM or SIGINT stops it gracefully: requests in flight (appends included) finish first. With \
            no --database-url the embedded database is used (started if needed, stopped on exit if started here).

            EXAMPLES:
              consent-ledger serve --port 8080
              consent-ledger serve --host 0.0.0.0 --port 8080 --report-policy policy.json
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body accepted (413 beyond).")
    var maxBodyBytes = ServerSettings.defaultMaxBodyBytes

    @Option(name: .customLong("max-batch-events"), help: "The most events one append may carry (413 beyond).")
    var maxBatchEvents = ServerSettings.defaultMaxBatchEvents

    @Option(name: .customLong("max-queued-events"),
            help: "The most events admitted and not yet committed; beyond, appends get 503 with Retry-After.")
    var maxQueuedEvents = AppendAdmission.defaultMaxQueuedEvents

    @Option(name: .customLong("max-queued-events-per-key"),
            help: "The most events one API key may have admitted and not yet committed; beyond, 429 with Retry-After (default: half of --max-queued-events).")
    var maxQueuedEventsPerKey: Int?

    @Option(name: .customLong("report-policy"),
            help: ArgumentHelp("A JSON policy file for the reports: the regulator report's rules, and the issuer and date of issue every HTML report names (docs/reports.md).",
                               valueName: "file"))
    var reportPolicy: String?

    @Option(name: .customLong("app-store-root"),
            help: "A root certificate (PEM or DER file) that App Store notifications must chain to: Apple Root CA - G3. Repeatable; without it the notification route answers 501.")
    var appStoreRoots: [String] = []

    @Option(name: .customLong("app-store-bundle-id"),
            help: "Accept App Store notifications only for this bundle id. Repeatable; default: any app.")
    var appStoreBundleIds: [String] = []

    @Option(name: .customLong("header-timeout"),
            help: ArgumentHelp("The longest wait for a request's head (request line and headers), from a new connection or from the first byte of the next request; then the connection is closed. Durations: 10s, 500ms, 2m.",
                               valueName: "duration"))
    var headerTimeout = TimeoutOption(RequestTimeouts.defaultHeader)

    @Option(name: .customLong("body-timeout"),
            help: ArgumentHelp("The longest wait for a whole request body, from the end of its head (in all, not between bytes); then the connection is closed. Durations: 10s, 500ms, 2m.",
                               valueName: "duration"))
    var bodyTimeout = TimeoutOption(RequestTimeouts.defaultBody)

    @Option(name: .customLong("idle-timeout"),
            help: ArgumentHelp("How long a kept-alive connection may wait for its next request before it is closed. Durations: 10s, 500ms, 2m.", valueName: "duration"))
    var idleTimeout = TimeoutOption(RequestTimeouts.defaultIdle)

    @Option(name: .customLong("max-connections"),
            help: "The most connections open at once; beyond, new ones wait in the listen backlog until one closes.")
    var maxConnections = RequestTimeouts.defaultMaxConnections

    @Option(name: .customLong("max-reads-per-key"),
            help: "The most reads (GET under /v1, streamed answers until their last byte) one API key may have under way; beyond, 429 with Retry-After.")
    var maxReadsPerKey = ServerSettings.defaultMaxReadsPerKey

    @Option(name: .customLong("max-reports-per-log"),
            help: "The most reports (consent register, regulator report, dossier) of one log computed at once, whichever keys ask; beyond, 429 with Retry-After.")
    var maxReportsPerLog = ServerSettings.defaultMaxReportsPerLog

    @Option(name: .customLong("max-refused-keys-per-minute"),
            help: "The most API keys one client (address) may offer that are not accepted, within a minute; beyond, 429 before any lookup.")
    var maxRefusedKeysPerMinute = ServerSettings.defaultMaxRefusedKeysPerMinute

    @Option(name: .customLong("max-database-wait"),
            help: ArgumentHelp("The longest a request waits for a database connection while every connection of its pool is in use; then 503 database-busy with Retry-After. Durations: 10s, 500ms, 2m.",
                               valueName: "duration"))
    var maxDatabaseWait = TimeoutOption(ServerSettings.defaultDatabaseBusyLimit)

    @Flag(name: .customLong("no-projections"), help: "Do not run the projection follower in this process.")
    var noProjections = false

    @Flag(name: .customLong("no-deliveries"),
          help: "Do not deliver webhook subscriptions in this process (they are not delivered with --no-projections either).")
    var noDeliveries = false

    @Flag(name: .customLong("public-proofs"),
          help: "Answer the verifiable log's routes (checkpoint, tiles, proofs) without an API key; events and reports still need one.")
    var publicProofs = false

    @Flag(name: .customLong("public-entries"),
          help: "With --public-proofs, also answer entry bundles and inclusion proofs, which carry the records themselves, without an API key.")
    var publicEntries = false

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("A reverse proxy's IP address whose X-Forwarded-For names the client, for the record of reads and "
                               + "the request log; from any other peer the header is ignored. Repeatable.", valueName: "address"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("witness"),
            help: ArgumentHelp("A witness whose cosignatures POST /v1/logs/{log}/checkpoint/cosignatures accepts: its public key "
                               + "NAME+KEYID+BASE64 (type 0x04), or a file holding it. Repeatable.", valueName: "key"))
    var witnesses: [String] = []

    @Option(name: .customLong("checkpoint-every"),
            help: ArgumentHelp("Sign a checkpoint of every log that has grown, this often (e.g. 10s, 1m), with the signing key.",
                               valueName: "duration"))
    var checkpointEvery: TimeoutOption?

    @OptionGroup var signingKey: SigningKeyOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        guard maxBatchEvents >= 1 else { throw ValidationError("--max-batch-events must be at least 1") }
        guard maxQueuedEvents >= 1 else { throw ValidationError("--max-queued-events must be at least 1") }
        if let perKey = maxQueuedEventsPerKey, perKey < 1 || perKey > maxQueuedEvents {
            throw ValidationError("--max-queued-events-per-key must be from 1 to --max-queued-events (\(maxQueuedEvents))")
        }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard maxReadsPerKey >= 1 else { throw ValidationError("--max-reads-per-key must be at least 1") }
        guard maxReportsPerLog >= 1 else { throw ValidationError("--max-reports-per-log must be at least 1") }
        guard maxRefusedKeysPerMinute >= 1 else { throw ValidationError("--max-refused-keys-per-minute must be at least 1") }
        if !appStoreBundleIds.isEmpty, appStoreRoots.isEmpty {
            throw ValidationError("--app-store-bundle-id needs --app-store-root: without a root no notification can be verified")
        }
    }

    /// The App Store settings from `--app-store-root` and `--app-store-bundle-id`; nil without roots.
    func appStoreSettings() throws -> AppStoreSettings? {
        guard !appStoreRoots.isEmpty else { return nil }
        var files: [[UInt8]] = []
        for path in appStoreRoots {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("--app-store-root \(path): cannot read the file")
            }
            files.append(Array(data))
        }
        do {
            return AppStoreSettings(verifier: try AppStoreSignedDataVerifier(rootFiles: files), bundleIds: Set(appStoreBundleIds))
        } catch {
            throw ValidationError("--app-store-root: \(error.description)")
        }
    }

    func run() async throws {
        let target = try database.target()
        var settings = ServerSettings(host: host, port: port, maxBodyBytes: maxBodyBytes, maxBatchEvents: maxBatchEvents,
                                      maxQueuedEvents: maxQueuedEvents, maxQueuedEventsPerKey: maxQueuedEventsPerKey,
                                      appStore: try appStoreSettings(),
                                      reportPolicy: try ReportOptions(policy: reportPolicy).loadPolicy(option: "report-policy"))
        settings.publicProofs = publicProofs
        settings.publicEntries = publicEntries
        settings.trustedProxies = trustedProxies
        settings.maxReadsPerKey = maxReadsPerKey
        settings.maxRefusedKeysPerMinute = maxRefusedKeysPerMinute
        settings.maxReportsPerLog = maxReportsPerLog
        settings.databaseBusyLimit = maxDatabaseWait.duration
        settings.witnesses = try witnesses.map { (key: String) throws(LedgerError) in
            try VerifierKeyArgument.load(key, option: "--witness", type: .cosignatureV1)
        }
        // The key is read before the database is opened, so a missing or unsafe key stops here.
        let checkpointKey = try checkpointEvery.map { _ in try signingKey.load(dataFolder: database.dataFolder()) }
        settings.timeouts = RequestTimeouts(header: headerTimeout.duration, body: bodyTimeout.duration, idle: idleTimeout.duration,
                                            maxConnections: maxConnections)
        let logger: Logger = {
            var logger = Logger(label: "consent-ledger.http")
            logger.logLevel = .info
            return logger
        }()
        let metrics = ServerMetrics.bootstrap()
        // The embedded database is migrated here; a server of the user's own is migrated by its
        // administrator (`consent-ledger migrate`), since serve connects as the application role
        // there (decision 0070).
        try await Ledger.with(target, migrating: target.isEmbedded, progress: Console.note) { ledger in
            let migrator = try Migrator(pool: ledger.pools.administrator)
            if !target.isEmbedded { try await migrator.requireCurrent() }
            let version = try await migrator.currentVersion()
            Console.note("schema version \(ledger.migration?.version ?? version ?? 0)")
            let runner = ProjectionRunner(pool: ledger.pools.administrator)
            if !noProjections { try await runner.requireRightToFold() }
            let api = LedgerAPI(ledger: ledger, settings: settings, metrics: metrics, logger: logger)
            var services: [any Service] = [ProjectionLagService(ledger: ledger, logger: logger),
                                           KeyChangeService(ledger: ledger), FoldListenerService(ledger: ledger)]
            if !noProjections {
                services.append(ProjectionService(ledger: ledger, note: { logger.info("\($0)") }))
                if !noDeliveries { services.append(DeliveryService(ledger: ledger, note: { logger.info("\($0)") })) }
            }
            if let checkpointEvery, let checkpointKey {
                Console.note("signing a checkpoint of every log that has grown, every \(checkpointEvery), with \(checkpointKey.name)")
                services.append(CheckpointService(ledger: ledger, interval: checkpointEvery.duration, key: checkpointKey,
                                                  note: { logger.info("\($0)") }))
            }
            let server = Application(router: api.router(),
                                     server: .ledgerHTTP1(timeouts: settings.timeouts, logger: logger),
                                     configuration: .ledger(address: .hostname(host, port: port), timeouts: settings.timeouts,
                                                            serverName: LedgerSoftware.product, logger: logger),
                                     services: services,
                                     onServerRunning: { channel in
                                         let base = "http://\(host):\(channel.localAddress?.port ?? port)"
                                         Console.note("listening on \(base)")
                                         Console.note("the console: \(base)/console (sign in with an auditor or admin API key: "
                                                      + "consent-ledger keys create --log L --role auditor)")
                                     },
                                     logger: logger)
            try await server.runService()
        }
        Console.note("stopped")
    }
}
