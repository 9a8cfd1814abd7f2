// swift-tools-version:6.2
import PackageDescription

/// The libFuzzer harness of ConsentLedger's parsers (tools/fuzz builds and runs it). A package of
/// its own, so that the sanitizer flags it is built with never reach the product's own build:
///
///     swift build --package-path Fuzz --scratch-path .build-fuzz \
///       -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
///
/// Every module (the ledger's included) is built with the address sanitizer and coverage, so
/// libFuzzer sees the parsers' branches; only the harness itself links libFuzzer
/// (`-sanitize=fuzzer`), which brings its own `main`: given to every module, it would replace the
/// `main` of the build's own tool (embed-sql, which the EmbedSQL plugin runs).
///
/// One executable; `FUZZ_TARGET` names the target (LedgerFuzzTargets' FuzzTarget).
let package = Package(
    name: "consent-ledger-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "consent-ledger", path: "..")],
    targets: [
        .executableTarget(
            name: "ledger-fuzz",
            dependencies: [.product(name: "LedgerFuzzTargets", package: "consent-ledger")],
            swiftSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
