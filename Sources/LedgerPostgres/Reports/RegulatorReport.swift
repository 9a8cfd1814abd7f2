import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The regulator report (docs/design/reports.md): one jurisdiction, one period, as of a log position. Age
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
public struct RegulatorReport: Sendable {
    /// What the report covers.
    public struct Parameters: Sendable, Equatable {
        /// The log.
        public var log: String
        /// An ISO 3166 code the ``JurisdictionCatalogue`` knows (`US`, `US-TX`, `GB`) or `EU`.
        public var jurisdiction: String
        /// The period's start, included.
        public var from: Date
        /// The period's end, excluded.
        public var to: Date
        /// The position to stop at; nil for the head.
        public var asOf: Int64?

        /// Creates parameters.
        public init(log: String, jurisdiction: String, from: Date, to: Date, asOf: Int64? = nil) {
            self.log = log
            self.jurisdiction = jurisdiction
            self.from = from
            self.to = to
            self.asOf = asOf
        }
    }

    /// The sealed report.
    public struct Result: Sendable {
        /// The whole report, sealed (``ReportSeal``): what `--format json` writes.
        public var json: [UInt8]
        /// Its seal.
        public var sha256: String
        /// The report as a JSON value (with its seal), for CSV and HTML.
        public var report: JSONValue
        /// Where it was computed.
        public var provenance: ReportProvenance
    }

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
        var sections = try await source.with(
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
        sections["report"] = "regulator"
        sections["parameters"] = [
            "log": .string(parameters.log), "jurisdiction": .string(parameters.jurisdiction),
            "from": .string(RegulatorQuery.timestamp(parameters.from)), "to": .string(RegulatorQuery.timestamp(parameters.to)),
            "asOf": .number(Double(provenance.position)),
        ]
        sections["ledger"] = try provenance.json
        sections["software"] = .string(LedgerSoftware.name)
        sections["policy"] = policy.json
        sections["integrity"] = integrity.json
        let (bytes, digest) = ReportSeal.seal(sections)
        var report = sections
        report[ReportSeal.member] = .string(digest)
        return Result(json: bytes, sha256: digest, report: .object(report), provenance: provenance)
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
