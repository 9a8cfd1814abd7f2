// swift-tools-version:6.2
import PackageDescription

/// ConsentLedger: an append-only, tamper-evident audit and consent ledger in PostgreSQL.
///
/// Dependency arrows point one way: LedgerCore (pure) <- LedgerPostgres <- LedgerApplication (the
/// operations) <- LedgerServer (HTTP) <- consent-ledger (CLI); LedgerSimulation, LedgerReportHTML and
/// LedgerAppStore sit on LedgerCore beside LedgerPostgres; LedgerAPIModel (the HTTP bodies) on
/// LedgerCore, shared by LedgerServer and LedgerClient (the library app backends call the API with);
/// LedgerReportModel (the reports' documents as types) on LedgerCore, under LedgerPostgres and LedgerReportHTML.
let package = Package(
    name: "consent-ledger",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "LedgerCore", targets: ["LedgerCore"]),
        .library(name: "LedgerSimulation", targets: ["LedgerSimulation"]),
        .library(name: "LedgerGenerators", targets: ["LedgerGenerators"]),
        .library(name: "LedgerReportModel", targets: ["LedgerReportModel"]),
        .library(name: "LedgerReportHTML", targets: ["LedgerReportHTML"]),
        .library(name: "LedgerAppStore", targets: ["LedgerAppStore"]),
        .library(name: "LedgerCluster", targets: ["LedgerCluster"]),
        .library(name: "LedgerPostgres", targets: ["LedgerPostgres"]),
        .library(name: "LedgerApplication", targets: ["LedgerApplication"]),
        .library(name: "LedgerAPIModel", targets: ["LedgerAPIModel"]),
        .library(name: "LedgerClient", targets: ["LedgerClient"]),
        .library(name: "ConsentLedgerEvents", targets: ["ConsentLedgerEvents"]),
        .library(name: "LedgerFuzzTargets", targets: ["LedgerFuzzTargets"]),
        .executable(name: "consent-ledger", targets: ["consent-ledger"]),
        .executable(name: "consent-ledger-bench", targets: ["consent-ledger-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The pure core: events, canonical JSON, hashes, the catalogue, proofs, report data. No I/O.
        .target(
            name: "LedgerCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // ISO 3166 codes (third-party data, its README names source and licence), compiled in by EmbedSQL.
            exclude: ["Jurisdictions/Data"],
            plugins: ["EmbedSQL"]
        ),
        // What the catalogue and the rules generate: the catalogue's SQL (sql/generated) and the
        // documents docs/events.md and docs/rules.md. Changes when a generated file's form changes.
        .target(name: "LedgerGenerators", dependencies: ["LedgerCore"]),
        // Simulated families and apps: the demo's history and the benchmarks' and tests' load.
        .target(name: "LedgerSimulation", dependencies: ["LedgerCore"]),
        // The projections' folds and the rules, pure Swift over typed events (decision 0061).
        .target(name: "LedgerFolds", dependencies: ["LedgerCore"]),
        // The reports' documents as types (decision 0073): what the JSON is sealed from, and the CSV
        // and the HTML page are made from. Changes when a report's shape changes.
        .target(name: "LedgerReportModel", dependencies: ["LedgerCore"]),
        // Reports as pages: HTML (and the choice of JSON, CSV or HTML bytes).
        .target(name: "LedgerReportHTML", dependencies: ["LedgerCore", "LedgerReportModel"]),
        // The auditor's console: its pages (server-rendered HTML), stylesheet and script (docs/console.md).
        .target(name: "LedgerConsole", dependencies: [
            "LedgerCore", "LedgerReportHTML", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // App Store Server Notifications: the JWS and certificate-chain checks.
        .target(
            name: "LedgerAppStore",
            dependencies: [
                "LedgerCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The parsers of untrusted input as functions of bytes: libFuzzer's targets (Fuzz/, tools/fuzz)
        // and the corpus regression test.
        .target(name: "LedgerFuzzTargets", dependencies: ["LedgerCore", "LedgerAppStore"]),
        // A PostgreSQL cluster of the tool's own (the embedded default): initdb, pg_ctl, its folder
        // and lock. Changes when how a local server is run changes, never with the ledger's schema.
        .target(name: "LedgerCluster", dependencies: ["LedgerCore"]),
        .target(
            name: "LedgerPostgres",
            dependencies: [
                "LedgerCore", "LedgerFolds", "LedgerReportModel", "LedgerCluster",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // Each big folder's README: what lives there, its files in reading order, who calls it.
            exclude: ["Store/README.md", "Projections/README.md", "Reports/README.md", "Folds/README.md"],
            plugins: ["EmbedSQL"]
        ),
        // The operations (append, read, state, replay, explain, reports, proofs, erase, keys) over
        // one pool per role: what the CLI, the HTTP API and the console call; and the webhooks' deliveries.
        .target(name: "LedgerApplication", dependencies: [
            "LedgerCore", "LedgerReportModel", "LedgerPostgres",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        // The HTTP API's bodies (docs/openapi.json's schemas) as Codable types.
        .target(name: "LedgerAPIModel", dependencies: ["LedgerCore"]),
        // The event catalogue's types for app backends, with the envelope: an event that would be
        // refused throws where it is made (docs/client.md).
        .target(name: "ConsentLedgerEvents", dependencies: ["LedgerCore"]),
        // docs/getting-started.md's Swift, compiled: GettingStartedSwiftTests checks that every
        // Swift block of the guide is in this file as it is written there.
        .executableTarget(name: "getting-started-example", dependencies: ["ConsentLedgerEvents", "LedgerClient"]),
        // The client library for app backends: typed calls, retries that reuse the idempotency key.
        .target(
            name: "LedgerClient",
            dependencies: [
                "LedgerCore",
                "LedgerAPIModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "LedgerServer",
            dependencies: [
                "LedgerCore",
                "LedgerApplication",
                "LedgerAPIModel",
                "LedgerReportModel",
                "LedgerReportHTML",
                "LedgerConsole",
                "LedgerAppStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "embed-sql", path: "Sources/embed-sql"),
        .executableTarget(
            name: "consent-ledger-bench",
            dependencies: [
                "LedgerCore",
                "LedgerReportModel",
                "LedgerSimulation",
                "LedgerCluster",
                "LedgerPostgres",
                "LedgerClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(name: "EmbedSQL", capability: .buildTool(), dependencies: ["embed-sql"]),
        .executableTarget(
            name: "consent-ledger",
            dependencies: [
                "LedgerCore",
                "LedgerReportModel",
                "LedgerSimulation",
                "LedgerReportHTML",
                "LedgerAppStore",
                "LedgerGenerators",
                "LedgerCluster",
                "LedgerPostgres",
                "LedgerApplication",
                "LedgerServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The test targets are named by tier. Unit: pure code, no I/O (the core, the folds, the
        // generators, the simulator, the report pages, the group commit's queue against a scripted store).
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "LedgerCore", "LedgerGenerators", "LedgerFolds", "LedgerSimulation", "LedgerReportModel", "LedgerReportHTML",
                "LedgerFuzzTargets", "ConsentLedgerEvents", "LedgerPostgres",
            ]
        ),
        // Route: the HTTP route layer and the client library, against scripted operations; no database.
        .testTarget(
            name: "RouteTests",
            dependencies: [
                "LedgerCore", "LedgerReportModel", "LedgerPostgres", "LedgerApplication", "LedgerAPIModel", "LedgerServer", "LedgerClient", "LedgerConsole",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Integration: against a real PostgreSQL the run starts itself, and the built executables as
        // processes (the CLI, serve, the client against a live server, the documents' examples).
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "LedgerCore", "LedgerSimulation", "LedgerReportModel", "LedgerReportHTML", "LedgerAppStore", "LedgerCluster", "LedgerPostgres",
                "LedgerServer",
                "LedgerApplication", "LedgerAPIModel", "LedgerClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
