import Foundation
import LedgerCore
import LedgerReportModel
import Logging
import PostgresNIO

/// The statements of the regulator report (projections/reports/regulator/, one file each), run in
/// order on one connection whose search_path finds `report_facts` and `anomalies` as of the
/// report's position (``ReportSource``). Every statement binds the same five values: $1 log, $2
/// the report's position, $3 the period's start, $4 its end, $5 the codes the jurisdiction takes
/// in (text[], ``JurisdictionScope/codes``), and those that read counts kept per day the period's
/// whole days as $6 and $7 (``runOverWholeDays(_:on:)``); every read of a projection is filtered by
/// `position <= $2`. Each section's Swift lives in its own file.
struct RegulatorQuery: Sendable {
    let parameters: RegulatorReport.Parameters
    let scope: JurisdictionScope
    let position: Int64
    let policy: ReportPolicy
    let logger: Logger

    /// The steps of ``sections(on:step:)``, in the order they run: a step's number is its place here.
    enum Step: Int, CaseIterable {
        case period, ageSignals, consent, rescissions, significantChanges, exceptions, violations, coverage, retention

        /// The step as progress names it.
        var name: String {
            switch self {
            case .period: return "the period's events"
            case .ageSignals: return "age signals"
            case .consent: return "consent"
            case .rescissions: return "rescissions"
            case .significantChanges: return "significant changes"
            case .exceptions: return "exceptions"
            case .violations: return "violations"
            case .coverage: return "coverage"
            case .retention: return "retention"
            }
        }
    }

    /// The steps, in order, as progress names them.
    static let steps = Step.allCases.map(\.name)

    /// Runs every step; returns the report's sections by member name.
    func sections(on connection: PostgresConnection, step: (Int, String) -> Void) async throws -> [String: JSONValue] {
        func begin(_ next: Step) { step(next.rawValue, next.name) }
        var sections: [String: JSONValue] = [:]
        // The statements are short and run once: compiling them with JIT costs more than it saves
        // (0.3 s of the consent step alone on a 10M-event log, docs/benchmarks.md).
        try await connection.watchedQuery("SET LOCAL jit = off", logger: logger)
        // The installs of coverage and the questions are grouped and sorted in hash tables and
        // sorts of a few tens of megabytes on a large log: with the default 4 MB they spill to
        // temporary files (100-325 MB a report at 10M events, docs/benchmarks.md).
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: "SET LOCAL work_mem = '\(Self.workMemory)'"), logger: logger)
        begin(.period)
        let counts = try await RegulatorCounts.read(self, on: connection)
        sections["scope"] = try await period(counts, on: connection)
        begin(.ageSignals)
        sections["ageSignals"] = ageSignals(counts)
        begin(.consent)
        var consent = try await consent(on: connection)
        consent["storeConsentStatus"] = Self.keyCounts(counts.outcomes(of: StoreConsentStatusReceived.eventType, scope.codes),
                                                       keys: RegulatorVocabulary.storeConsentStatuses)
        begin(.rescissions)
        let erased = try await erasedSubjects(on: connection)
        let (rescissions, lateOrMissing) = try await rescissions(on: connection, erased: erased)
        consent["rescissions"] = rescissions
        sections["consent"] = .object(consent)
        let expired = try await expiredAgeSignals(on: connection, erased: erased)
        begin(.significantChanges)
        sections["significantChanges"] = try await significantChanges(on: connection)
        begin(.exceptions)
        sections["exceptions"] = try await exceptions(counts, on: connection)
        begin(.violations)
        let found = try await ruleViolations(on: connection, erased: erased)
        sections["violations"] = .array((found + lateOrMissing + expired).sorted { $0.position < $1.position }.map(\.json))
        begin(.coverage)
        sections["coverage"] = try await coverage(backfillRequests: counts.backfillRequests(scope.codes), on: connection)
        begin(.retention)
        sections["retention"] = try await retention(on: connection)
        sections["notices"] = try await notices(scope: sections["scope"] ?? .null, on: connection)
        return sections
    }

    /// `work_mem` for the report's transaction (per sort or hash table).
    static let workMemory = "64MB"

    /// The five bound values.
    var binds: PostgresBindings {
        var binds = PostgresBindings(capacity: 5)
        binds.append(parameters.log)
        binds.append(position)
        binds.append(parameters.from)
        binds.append(parameters.to)
        binds.append(scope.codes)
        return binds
    }

    /// Runs `sql` (a file of projections/reports/regulator/, ``ReportSQL/Regulator``) with the
    /// five values, and `extra` as $6 when given.
    func run(_ sql: String, on connection: PostgresConnection) async throws -> PostgresRowSequence {
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    /// Runs `sql` with the five values and `extra` as $6.
    func run(_ sql: String, extra: some PostgresEncodable & Sendable, on connection: PostgresConnection) async throws -> PostgresRowSequence {
        var binds = self.binds
        try binds.append(extra)
        return try await connection.watchedQuery(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    /// Runs `sql` with the five values and, as $6 and $7, where the period's whole UTC days start
    /// and end (``wholeDays``): the statements that read counts kept per day (`period-counts.sql`,
    /// `installs.sql`) take those days from the counts and the hours before $6 and from $7 on from `facts`.
    func runOverWholeDays(_ sql: String, on connection: PostgresConnection) async throws -> PostgresRowSequence {
        var binds = self.binds
        let days = Self.wholeDays(from: parameters.from, to: parameters.to)
        binds.append(days.start)
        binds.append(days.end)
        return try await connection.watchedQuery(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
    }

    /// The whole UTC days of [from, to) as [start, end) (both midnights), or, when it holds none,
    /// an empty stretch inside it, so that [from, start) and [end, to) are always the rest of it.
    static func wholeDays(from: Date, to: Date) -> (start: Date, end: Date) {
        let day = 86_400.0
        let fromDay = (from.timeIntervalSince1970 / day).rounded(.down) * day
        let firstMidnight = Date(timeIntervalSince1970: fromDay == from.timeIntervalSince1970 ? fromDay : fromDay + day)
        let lastMidnight = Date(timeIntervalSince1970: (to.timeIntervalSince1970 / day).rounded(.down) * day)
        let start = min(firstMidnight, to)
        return (start, max(lastMidnight, start))
    }

    /// A time as the report's parameters print it.
    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// An integer as a JSON number.
    static func number(_ value: Int64) -> JSONValue { .number(Double(value)) }

    /// `count` of `key` for every key of `keys` (zeros included), then any other keys seen, sorted.
    static func keyCounts(_ counts: [String: Int64], keys: [String]) -> JSONValue {
        let extra = counts.keys.filter { !keys.contains($0) }.sorted()
        return .array((keys + extra).map { ["key": .string($0), "count": number(counts[$0] ?? 0)] })
    }

    /// A share of a whole, to 4 decimals; null when the whole is 0.
    static func share(_ part: Int64, of whole: Int64) -> JSONValue {
        whole == 0 ? .null : .number((Double(part) / Double(whole) * 10_000).rounded() / 10_000)
    }
}

/// One violation the report lists.
struct RegulatorViolation: Sendable {
    var rule: String
    var subject: String?
    var subjectErased: Bool
    var occurredAt: String
    var position: Int64
    var eventId: String
    var detail: String
    /// The events it rests on, in log order.
    var evidence: [(position: Int64, eventId: String)]
    /// The fact it was judged without, conservatively (decision 0064); nil: none.
    var needsReview: String? = nil

    var json: JSONValue {
        ["rule": .string(rule), "description": .string(RegulatorVocabulary.description(of: rule)),
         "subject": subject.map(JSONValue.string) ?? .null, "subjectErased": .bool(subjectErased),
         "occurredAt": .string(occurredAt), "position": RegulatorQuery.number(position), "eventId": .string(eventId),
         "detail": .string(detail),
         "evidencePositions": .array(evidence.map { RegulatorQuery.number($0.position) }),
         "evidenceEventIds": .array(evidence.map { .string($0.eventId) }),
         "needsReview": needsReview.map(JSONValue.string) ?? .null]
    }
}
