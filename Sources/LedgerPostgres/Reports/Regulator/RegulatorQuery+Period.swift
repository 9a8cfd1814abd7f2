import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// Stages the period's events of the report's jurisdiction (and its subdivisions) in a
    /// temporary table the other steps read, and counts the period's events of every jurisdiction
    /// straight from `facts` (only these counts need them; staging them too tripled the table).
    func period(on connection: PostgresConnection) async throws -> JSONValue {
        _ = try await run(ReportSQL.Regulator.period, on: connection)
        try await connection.watchedQuery("ANALYZE regulator_period", logger: logger)
        var ours: Int64 = 0
        for try await count in try await run(ReportSQL.Regulator.periodOurs, on: connection).decode(Int64.self) {
            ours = count
        }
        for try await (all, none) in try await run(ReportSQL.Regulator.periodAll, on: connection).decode((Int64, Int64).self) {
            return ["eventsInPeriod": Self.number(all), "eventsInJurisdiction": Self.number(ours),
                    "eventsWithoutJurisdiction": Self.number(none)]
        }
        return ["eventsInPeriod": 0, "eventsInJurisdiction": Self.number(ours), "eventsWithoutJurisdiction": 0]
    }

    /// Requests by trigger, responses by category and declaration, declines, failures, Play statuses.
    func ageSignals(on connection: PostgresConnection) async throws -> JSONValue {
        var triggers: [String: Int64] = [:], declarations: [String: Int64] = [:], failures: [String: Int64] = [:]
        var play: [String: Int64] = [:], apple: [String: Int64] = [:], playStatus: [String: Int64] = [:]
        var declines: Int64 = 0
        let rows = try await run(ReportSQL.Regulator.ageSignals, on: connection)
        for try await (type, trigger, category, declaration, status, error, count)
            in rows.decode((String, String?, String?, String?, String?, String?, Int64).self) {
            switch type {
            case "AgeRangeRequested": triggers[trigger ?? "none", default: 0] += count
            case "AgeRangeShared":
                apple[category ?? "unknown", default: 0] += count
                declarations[declaration ?? "none", default: 0] += count
            case "AgeRangeDeclined": declines += count
            case "AgeRangeRequestFailed": failures[error ?? "none", default: 0] += count
            default:
                play[category ?? "unknown", default: 0] += count
                playStatus[status ?? "none", default: 0] += count
            }
        }
        let categories: [JSONValue] = RegulatorVocabulary.categories.map { key in
            let a = apple[key] ?? 0, p = play[key] ?? 0
            return ["key": .string(key), "declaredAgeRange": Self.number(a), "play": Self.number(p), "count": Self.number(a + p)]
        }
        return ["requestsByTrigger": Self.keyCounts(triggers, keys: RegulatorVocabulary.triggers),
                "responsesByCategory": .array(categories),
                "responsesByDeclaration": Self.keyCounts(declarations, keys: RegulatorVocabulary.declarations),
                "declines": Self.number(declines),
                "failures": Self.keyCounts(failures, keys: RegulatorVocabulary.ageRangeErrors),
                "playSignalsByStatus": Self.keyCounts(playStatus, keys: RegulatorVocabulary.playStatuses)]
    }
}
