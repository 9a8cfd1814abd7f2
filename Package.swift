// swift-tools-version:6.2
import PackageDescription

/// ConsentLedger: an append-only, tamper-evident audit and consent ledger in PostgreSQL.
///
/// Dependency arrows point one way: LedgerCore (pure) <- LedgerPostgres <- LedgerServer <- consent-ledger;
/// LedgerSimulation, LedgerReportHTML and LedgerAppStore sit on LedgerCore beside LedgerPostgres.
let package = Package(
    name: "consent-ledger",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "LedgerCore", targets: ["LedgerCore"]),
        .library(name: "LedgerSimulation", targets: ["LedgerSimulation"]),
        .library(name: "LedgerReportHTML", targets: ["LedgerReportHTML"]),
        .library(name: "LedgerAppStore", targets: ["LedgerAppStore"]),
        .library(name: "LedgerPostgres", targets: ["LedgerPostgres"]),
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
    ],
    targets: [
        // The pure core: events, canonical JSON, hashes, the catalogue, proofs, report data. No I/O.
        .target(
            name: "LedgerCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Simulated families and apps: the demo's history and the benchmarks' and tests' load.
        .target(name: "LedgerSimulation", dependencies: ["LedgerCore"]),
        // Reports as pages: HTML (and the choice of JSON, CSV or HTML bytes).
        .target(name: "LedgerReportHTML", dependencies: ["LedgerCore"]),
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
        .target(
            name: "LedgerPostgres",
            dependencies: [
                "LedgerCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            plugins: ["EmbedSQL"]
        ),
        .target(
            name: "LedgerServer",
            dependencies: [
                "LedgerCore",
                "LedgerPostgres",
                "LedgerReportHTML",
                "LedgerAppStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "embed-sql", path: "Sources/embed-sql"),
        .executableTarget(
            name: "consent-ledger-bench",
            dependencies: [
                "LedgerCore",
                "LedgerSimulation",
                "LedgerPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .plugin(name: "EmbedSQL", capability: .buildTool(), dependencies: ["embed-sql"]),
        .executableTarget(
            name: "consent-ledger",
            dependencies: [
                "LedgerCore",
                "LedgerSimulation",
                "LedgerReportHTML",
                "LedgerAppStore",
                "LedgerPostgres",
                "LedgerServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "LedgerCoreTests",
            dependencies: ["LedgerCore", "LedgerSimulation", "LedgerReportHTML"]
        ),
        .testTarget(
            name: "LedgerPostgresTests",
            dependencies: [
                "LedgerCore", "LedgerSimulation", "LedgerReportHTML", "LedgerAppStore", "LedgerPostgres", "LedgerServer",
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
