import Foundation
import Logging
import PostgresNIO

/// What the regulator benchmark reports on: a full calendar quarter inside the simulated span
/// (by the events' device clock, `occurred_at`), and the jurisdictions to report for in it: the
/// one with the most events there and, when its code is a subdivision (`US-TX`), its country
/// (`US`, which takes in every `US-xx`).
struct RegulatorScope: Sendable {
    /// A calendar quarter, [from, to) in UTC.
    struct Quarter: Sendable {
        var label: String
        var from: Date
        var to: Date
        /// Events of the log that occurred in it (`ledger.events`).
        var events: Int64 = 0
    }

    /// The first and last `occurred_at` of the log.
    var first: Date
    var last: Date
    /// Every full quarter of the span, with its events.
    var candidates: [Quarter]
    /// The quarter reported on.
    var quarter: Quarter
    /// Why it was chosen.
    var chosenBecause: String
    /// `report_facts.facts` rows in the quarter, by jurisdiction code (nil: none given), most first.
    var byJurisdiction: [(code: String?, rows: Int64)]
    /// The jurisdictions reported on, with the facts rows each takes in.
    var jurisdictions: [(code: String, rows: Int64)]

    /// `report_facts.facts` rows in the quarter, all jurisdictions.
    var factsRows: Int64 { byJurisdiction.reduce(0) { $0 + $1.rows } }

    /// Chooses the quarter (`asked`, as `2027-Q1`, or the full one with the most events) and the
    /// jurisdictions (`asked`, or the biggest and its country) on the loaded log.
    static func choose(log: String, quarter asked: String?, jurisdictions askedCodes: [String],
                       on connection: PostgresConnection, logger: Logger) async throws -> RegulatorScope {
        var first = Date(), last = Date()
        for try await (low, high) in try await connection.query(
            "SELECT min(occurred_at), max(occurred_at) FROM ledger.events WHERE log_id = \(log)", logger: logger
        ).decode((Date?, Date?).self) {
            guard let low, let high else { throw BenchError("log \(log) is empty") }
            (first, last) = (low, high)
        }
        var candidates = fullQuarters(from: first, to: last)
        for index in candidates.indices {
            candidates[index].events = try await count(
                "SELECT count(*) FROM ledger.events WHERE log_id = $1 AND occurred_at >= $2 AND occurred_at < $3",
                log: log, candidates[index], on: connection, logger: logger)
        }
        let quarter: Quarter, because: String
        if let asked {
            guard var chosen = Self.quarter(named: asked) else { throw BenchError("--quarter \(asked): give it as 2027-Q1") }
            if let known = candidates.first(where: { $0.label == chosen.label }) {
                chosen.events = known.events
            } else {
                chosen.events = try await count(
                    "SELECT count(*) FROM ledger.events WHERE log_id = $1 AND occurred_at >= $2 AND occurred_at < $3",
                    log: log, chosen, on: connection, logger: logger)
            }
            quarter = chosen
            because = candidates.contains { $0.label == chosen.label } ? "asked for (--quarter)"
                : "asked for (--quarter); NOT a full quarter of the simulated span"
        } else {
            guard let most = candidates.max(by: { ($0.events, $0.from) < ($1.events, $1.from) }) else {
                throw BenchError("the log's events occurred from \(UTCTime.seconds(Int64(first.timeIntervalSince1970))) to "
                    + "\(UTCTime.seconds(Int64(last.timeIntervalSince1970))): no full calendar quarter; raise --events, "
                    + "lower --families, or give --quarter")
            }
            quarter = most
            because = "the full calendar quarter of the span with the most events"
        }
        var byJurisdiction: [(code: String?, rows: Int64)] = []
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        binds.append(quarter.from)
        binds.append(quarter.to)
        for try await (code, rows) in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT jurisdiction, count(*)::bigint FROM report_facts.facts
             WHERE log_id = $1 AND occurred_at >= $2 AND occurred_at < $3
             GROUP BY 1 ORDER BY 2 DESC, 1
            """, binds: binds), logger: logger).decode((String?, Int64).self) {
            byJurisdiction.append((code, rows))
        }
        func rows(_ code: String) -> Int64 {
            byJurisdiction.reduce(0) { sum, entry in
                guard let c = entry.code, c == code || c.hasPrefix(code + "-") else { return sum }
                return sum + entry.rows
            }
        }
        var codes = askedCodes
        if codes.isEmpty {
            guard let top = byJurisdiction.first(where: { $0.code != nil })?.code else {
                throw BenchError("no event of \(quarter.label) names a jurisdiction")
            }
            codes = [top]
            if let dash = top.firstIndex(of: "-") { codes.append(String(top[..<dash])) }
        }
        return RegulatorScope(first: first, last: last, candidates: candidates, quarter: quarter, chosenBecause: because,
                              byJurisdiction: byJurisdiction, jurisdictions: codes.map { ($0, rows($0)) })
    }

    /// `2027-Q1` as a quarter.
    static func quarter(named name: String) -> Quarter? {
        let parts = name.uppercased().split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), parts[1].count == 2, parts[1].hasPrefix("Q"),
              let number = Int(parts[1].dropFirst()), (1...4).contains(number) else { return nil }
        return quarter(year: year, number: number)
    }

    /// Quarter `number` (1–4) of `year`, UTC.
    static func quarter(year: Int, number: Int) -> Quarter {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let from = calendar.date(from: DateComponents(year: year, month: 3 * (number - 1) + 1, day: 1))!
        let to = calendar.date(byAdding: .month, value: 3, to: from)!
        return Quarter(label: "\(year)-Q\(number)", from: from, to: to)
    }

    /// The calendar quarters [from, to) with `first <= from` and `to <= last`.
    static func fullQuarters(from first: Date, to last: Date) -> [Quarter] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: first)
        var year = parts.year!, number = (parts.month! - 1) / 3 + 1
        var found: [Quarter] = []
        while true {
            let quarter = quarter(year: year, number: number)
            if quarter.from > last { break }
            if quarter.from >= first, quarter.to <= last { found.append(quarter) }
            number += 1
            if number == 5 { (year, number) = (year + 1, 1) }
        }
        return found
    }

    private static func count(_ sql: String, log: String, _ quarter: Quarter, on connection: PostgresConnection,
                              logger: Logger) async throws -> Int64 {
        var binds = PostgresBindings(capacity: 3)
        binds.append(log)
        binds.append(quarter.from)
        binds.append(quarter.to)
        return try await BenchSQL.integer(PostgresQuery(unsafeSQL: sql, binds: binds), on: connection, logger: logger)
    }
}
