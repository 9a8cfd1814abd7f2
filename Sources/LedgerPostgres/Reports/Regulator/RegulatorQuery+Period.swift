import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// Stages the period's events of the report's jurisdiction that later steps list one by one in
    /// a temporary table (`period.sql`), and makes the scope from the period's counts of every
    /// jurisdiction (``RegulatorCounts``). The scope says what the jurisdiction took in, and lists
    /// the period's events whose code the catalogue does not know: stored as evidence, but counted
    /// in no report (decision 0024).
    func period(_ counts: RegulatorCounts, on connection: PostgresConnection,
                catalogue: JurisdictionCatalogue = .standard) async throws -> JSONValue {
        _ = try await run(ReportSQL.Regulator.period, on: connection)
        // Statistics of the columns the later steps join and filter on (all of them cost twice as much).
        try await connection.watchedQuery("ANALYZE regulator_period (type, ref, subject, position)", logger: logger)
        var ours: Int64 = 0
        var environments: [String: Int64] = [:]
        for row in counts.ours(scope.codes) {
            ours += row.events
            environments[row.environment ?? "not stated", default: 0] += row.events
        }
        var all: Int64 = 0, none: Int64 = 0
        var byCode: [String: (events: Int64, first: Int64)] = [:]
        for row in counts.rows {
            all += row.events
            guard let code = row.jurisdiction else { none += row.events; continue }
            let seen = byCode[code] ?? (0, row.firstPosition)
            byCode[code] = (seen.events + row.events, min(seen.first, row.firstPosition))
        }
        let unknown = byCode.filter { !catalogue.isKnown($0.key) }.sorted { $0.key < $1.key }
            .map { (code: $0.key, events: $0.value.events, first: $0.value.first) }
        var unknownCodes: [JSONValue] = []
        if !unknown.isEmpty {
            var ids: [Int64: String] = [:]
            let query: PostgresQuery = """
                SELECT position, event_id::text FROM facts WHERE log_id = \(parameters.log) AND position = ANY(\(unknown.map(\.first)))
                """
            for try await (position, id) in try await connection.watchedQuery(query, logger: logger).decode((Int64, String).self) {
                ids[position] = id
            }
            unknownCodes = unknown.map { item in
                ["code": .string(item.code), "events": Self.number(item.events),
                 "evidencePositions": [Self.number(item.first)], "evidenceEventIds": [.string(ids[item.first] ?? "")]]
            }
        }
        var scope = self.scope.json.objectValue ?? [:]
        scope["eventsInPeriod"] = Self.number(all)
        scope["eventsInJurisdiction"] = Self.number(ours)
        scope["eventsByEnvironment"] = Self.keyCounts(environments, keys: RegulatorVocabulary.environments)
        scope["eventsWithoutJurisdiction"] = Self.number(none)
        scope["eventsWithUnknownJurisdiction"] = Self.number(unknown.reduce(0) { $0 + $1.events })
        scope["unknownCodes"] = .array(unknownCodes)
        return .object(scope)
    }

    /// Eligibility checks by outcome, requests by trigger, responses by category and declaration,
    /// declines, failures, Play statuses, and the age checks that are neither platform's (an app's
    /// own gate, a third-party verifier) by method and outcome.
    func ageSignals(_ counts: RegulatorCounts) -> JSONValue {
        var triggers: [String: Int64] = [:], declarations: [String: Int64] = [:], failures: [String: Int64] = [:]
        var eligibility: [String: Int64] = [:], controls: [String: Int64] = [:]
        var play: [String: Int64] = [:], apple: [String: Int64] = [:], playStatus: [String: Int64] = [:]
        var checks: [String: [String: Int64]] = [:]
        var declines: Int64 = 0
        for row in counts.counted(scope.codes) {
            let count = row.events
            switch row.type {
            case "EligibilityChecked": eligibility[row.outcome ?? "none", default: 0] += count
            case "AgeVerificationCompleted": checks[row.checkMethod ?? "none", default: [:]][row.outcome ?? "none", default: 0] += count
            case "AgeRangeRequested": triggers[row.trigger ?? "none", default: 0] += count
            case "AgeRangeShared":
                apple[row.category ?? "unknown", default: 0] += count
                declarations[row.declaration ?? "none", default: 0] += count
                for control in (row.outcome ?? "none").split(separator: ",") { controls[String(control), default: 0] += count }
            case "AgeRangeDeclined": declines += count
            case "AgeRangeRequestFailed": failures[row.error ?? "none", default: 0] += count
            case "PlayAgeSignalReceived":
                play[row.category ?? "unknown", default: 0] += count
                playStatus[row.playStatus ?? "none", default: 0] += count
            default: continue
            }
        }
        let categories: [JSONValue] = RegulatorVocabulary.categories.map { key in
            let a = apple[key] ?? 0, p = play[key] ?? 0
            return ["key": .string(key), "declaredAgeRange": Self.number(a), "play": Self.number(p), "count": Self.number(a + p)]
        }
        return ["eligibilityChecks": Self.keyCounts(eligibility, keys: RegulatorVocabulary.eligibilityOutcomes),
                "requestsByTrigger": Self.keyCounts(triggers, keys: RegulatorVocabulary.triggers),
                "responsesByCategory": .array(categories),
                "responsesByDeclaration": Self.keyCounts(declarations, keys: RegulatorVocabulary.declarations),
                "responsesByParentalControl": Self.keyCounts(controls, keys: RegulatorVocabulary.parentalControls),
                "declines": Self.number(declines),
                "failures": Self.keyCounts(failures, keys: RegulatorVocabulary.ageRangeErrors),
                "playSignalsByStatus": Self.keyCounts(playStatus, keys: RegulatorVocabulary.playStatuses),
                "ageChecksByMethod": .array(RegulatorVocabulary.ageCheckMethods.map { method in
                    var row: [String: JSONValue] = ["key": .string(method)]
                    for outcome in RegulatorVocabulary.ageCheckOutcomes { row[outcome] = Self.number(checks[method]?[outcome] ?? 0) }
                    row["count"] = Self.number(checks[method]?.values.reduce(0, +) ?? 0)
                    return .object(row)
                })]
    }
}
