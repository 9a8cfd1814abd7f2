import Foundation
import LedgerCore
import LedgerReportModel
import Logging
import PostgresNIO

/// Computing the regulator report (docs/design/reports.md): one jurisdiction, one period, as of a log position. Age
/// signals, consent, significant changes, exceptions, the violations of the ledger's rules with
/// their evidence, coverage, retention and integrity, from the `report_facts` and `anomalies`
/// projections (``ReportSource``) and, for the few erasure events, the log itself.
///
/// The jurisdiction is a code of the ``JurisdictionCatalogue`` (an unknown one is refused), expanded
/// once, here, into the codes it takes in (``JurisdictionScope``: `US` takes in `US-TX`, `EU` its
/// member states and their subdivisions); the coverage and retention sections are titled by the
/// laws that govern that scope (``RegulatorLaws``). The period is [from, to) on the device clock
/// (`occurredAt`). What happened to a question or exception is what the log holds by the period's
/// end (events that occurred before `to`, at positions up to the report's position).
/// The namespace, its parameters, result and CSV are LedgerReportModel's; computing it is here.
extension RegulatorReport {
    /// Computes the report. `progress` hears each step as it starts (its number from 1, the number
    /// of steps, what it does); `note` hears how the projections are read (``ReportSource``) and, in a line starting
    /// `integrity: `, how the integrity check ended (it runs alongside the other steps).
    public static func compute(_ parameters: Parameters, policy: ReportPolicy = .defaults, pool: LedgerPool,
                               logger: Logger = Logger(label: "consent-ledger.reports"),
                               progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in },
                               note: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Result {
        let scope = try validate(parameters)
        let provenance = try await ReportProvenance.resolve(log: parameters.log, position: parameters.asOf, pool: pool, logger: logger)
        let query = RegulatorQuery(parameters: parameters, scope: scope, position: provenance.position, policy: policy, logger: logger)
        let steps = RegulatorQuery.steps.count + 1
        let through = provenance.position
        let what: String
        if let checkpoint = provenance.checkpoint {
            what = "the signed checkpoint of \(checkpoint.treeSize), then every record from the period's first to position \(through)"
        } else {
            what = "positions 1 to \(through)"
        }
        progress(1, steps, "the integrity of the log: " + what + ", alongside the other steps")
        // The check re-hashes on connections of its own while the sections are read on another:
        // it is CPU-bound hashing in the database, and the sections leave a core to it. The records
        // the sections cite before its range are proved once the sections are known.
        async let checked = Self.checkIntegrity(provenance, period: (parameters.from, parameters.to), pool: pool, logger: logger,
                                                note: note)
        let source = ReportSource(pool: pool, logger: logger)
        let folded: @Sendable (Int64, Int64) -> Void = { done, total in
            if done == total || done % 1_000_000 == 0 { note("folded \(done) of \(total) positions") }
        }
        let sections = try await source.with(
            log: parameters.log, position: provenance.position, projections: .regulator, note: note, progress: folded
        ) { connection in
            try await query.sections(on: connection) { index, name in progress(index + 2, steps, name) }
        }
        var integrity = try await checked
        try await integrity.prove(cited: ReportEvidence.positions(in: .object(sections)), log: parameters.log, pool: pool, logger: logger)
        if integrity.citedProved > 0 {
            note("integrity: \(integrity.citedProved) cited records before position \(integrity.verifiedFrom) proved in the checkpoint's tree, "
                 + (integrity.passed ? "passed" : "FAILED"))
        }
        let ledger = try provenance.ledger
        // A section as the queries made it, decoded into its type.
        func section<Section: Decodable>(_ name: String, as type: Section.Type) throws -> Section {
            try ReportDecoding.decode(type, from: sections[name] ?? .null, reportName: "regulator report's \(name)")
        }
        var document = RegulatorDocument(
            parameters: .init(log: parameters.log, jurisdiction: parameters.jurisdiction, from: RegulatorQuery.timestamp(parameters.from),
                              to: RegulatorQuery.timestamp(parameters.to), asOf: provenance.position),
            ledger: ledger, software: LedgerSoftware.name,
            policy: try ReportDecoding.decode(RegulatorPolicySection.self, from: policy.json, reportName: "report policy"),
            scope: try section("scope", as: RegulatorScopeSection.self),
            ageSignals: try section("ageSignals", as: RegulatorAgeSignalsSection.self),
            consent: try section("consent", as: RegulatorConsentSection.self),
            significantChanges: try section("significantChanges", as: [RegulatorSignificantChangeRow].self),
            exceptions: try section("exceptions", as: RegulatorExceptionsSection.self),
            violations: try section("violations", as: [RegulatorViolationRow].self),
            coverage: try section("coverage", as: RegulatorCoverageSection.self),
            retention: try section("retention", as: RegulatorRetentionSection.self),
            integrity: try integrity.section,
            notices: try section("notices", as: [ReportNotice].self))
        let (bytes, digest) = try ReportSeal.seal(encodable: document)
        document.sha256 = digest
        return Result(json: bytes, sha256: digest, document: document, provenance: ledger)
    }

    /// The integrity section (``ReportIntegrity``); `note` hears when it is done and how long it took.
    private static func checkIntegrity(_ provenance: ReportProvenance, period: (from: Date, to: Date), pool: LedgerPool, logger: Logger,
                                       note: @Sendable (String) -> Void) async throws -> ReportIntegrity {
        let clock = ContinuousClock()
        let start = clock.now
        let integrity = try await ReportIntegrity.check(provenance, period: period, pool: pool, logger: logger)
        let seconds = (clock.now - start) / .milliseconds(1) / 1000
        let what = integrity.verifiedFrom > integrity.verifiedThrough ? "the checkpoint checked"
            : "positions \(integrity.verifiedFrom) to \(integrity.verifiedThrough) re-hashed"
        note("integrity: \(what) in " + String(format: "%.2f", seconds) + " s, " + (integrity.passed ? "passed" : "FAILED"))
        return integrity
    }

    /// The longest period one report covers (three years).
    public static let maxPeriodDays = 1_100

    /// Refuses parameters that cannot make a report, saying how to fix them, and returns what the
    /// jurisdiction takes in (``compute`` calls it too; callers may check before opening a database).
    /// An unknown jurisdiction code is refused by the ``JurisdictionCatalogue`` (`TX`: "Texas is US-TX").
    @discardableResult
    public static func validate(_ parameters: Parameters,
                                catalogue: JurisdictionCatalogue = .standard) throws(LedgerError) -> JurisdictionScope {
        let scope = try catalogue.scope(of: parameters.jurisdiction)
        guard parameters.to.timeIntervalSince(parameters.from) <= Double(maxPeriodDays) * 86_400 || parameters.from >= parameters.to else {
            throw LedgerError(.invalidRequest, "the period is longer than \(maxPeriodDays) days",
                              hint: "A regulator report covers a quarter or a year; ask for one period at a time.")
        }
        guard parameters.from < parameters.to else {
            throw LedgerError(.invalidRequest, "the period is empty: --from \(RegulatorQuery.timestamp(parameters.from)) is not before --to \(RegulatorQuery.timestamp(parameters.to))",
                              hint: "Give --from the first day of the period and --to the day after its last, e.g. --from 2026-07-01 --to 2026-10-01 for the third quarter.")
        }
        return scope
    }
}
