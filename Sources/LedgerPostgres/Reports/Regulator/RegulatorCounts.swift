import LedgerCore
import PostgresNIO

/// The period's events of every jurisdiction, counted by code, environment, type and the age
/// signal's columns (`period-counts.sql`: `report_facts.period_counts` for whole days and whole
/// blocks, `facts` for the rest). The scope, the age signals and coverage's back-fill requests are
/// sums over these rows.
struct RegulatorCounts: Sendable {
    /// One combination of columns, with its events and the first position among them.
    struct Row: Sendable {
        var jurisdiction: String?
        var environment: String?
        var type: String
        var trigger: String?
        var category: String?
        var declaration: String?
        var playStatus: String?
        var error: String?
        var checkMethod: String?
        var outcome: String?
        var events: Int64
        var firstPosition: Int64
    }

    /// Every combination seen in the period.
    var rows: [Row]

    /// The rows of the report's jurisdiction (a code among `codes`), of every environment: the scope.
    func ours(_ codes: [String]) -> [Row] {
        let codes = Set(codes)
        return rows.filter { $0.jurisdiction.map(codes.contains) ?? false }
    }

    /// The rows of the report's jurisdiction that the figures count: not from a test environment
    /// (decision 0068).
    func counted(_ codes: [String]) -> [Row] {
        ours(codes).filter { !($0.environment.map(EventEnvelope.AppInfo.testEnvironments.contains) ?? false) }
    }

    /// The period's `AgeRangeRequested` events with trigger `backfill` among `codes`.
    func backfillRequests(_ codes: [String]) -> Int64 {
        counted(codes).filter { $0.type == "AgeRangeRequested" && $0.trigger == "backfill" }.reduce(0) { $0 + $1.events }
    }

    /// The rows of `type` among `codes`, added up by their `outcome`.
    func outcomes(of type: String, _ codes: [String]) -> [String: Int64] {
        counted(codes).filter { $0.type == type }.reduce(into: [:]) { $0[$1.outcome ?? "none", default: 0] += $1.events }
    }

    /// Reads the counts of the query's period.
    static func read(_ query: RegulatorQuery, on connection: PostgresConnection) async throws -> RegulatorCounts {
        var rows: [Row] = []
        let result = try await query.runOverWholeDays(ReportSQL.Regulator.periodCounts, on: connection)
        for try await (code, environment, type, trigger, category, declaration, status, error, method, outcome, events, first)
            in result.decode((String?, String?, String, String?, String?, String?, String?, String?, String?, String?, Int64, Int64).self) {
            rows.append(Row(jurisdiction: code, environment: environment, type: type, trigger: trigger, category: category,
                            declaration: declaration, playStatus: status, error: error, checkMethod: method, outcome: outcome,
                            events: events, firstPosition: first))
        }
        return RegulatorCounts(rows: rows)
    }
}
