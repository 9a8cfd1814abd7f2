import Foundation
import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// PermissionKit questions asked (or that failed to be asked) in the period and what became of
    /// each by its end: the first answer, else a QuestionExpired, else a PermissionQuestionFailed,
    /// else pending (the consent register's order, `ledger.question_outcome`):
    /// projections/reports/regulator/questions.sql.
    func consent(on connection: PostgresConnection) async throws -> [String: JSONValue] {
        _ = try await run(ReportSQL.Regulator.questions, on: connection)
        try await connection.watchedQuery("ANALYZE regulator_questions", logger: logger)
        var consent: [String: JSONValue] = [:]
        let figures = try await run(ReportSQL.Regulator.consentFigures, on: connection)
        for try await (sent, approved, denied, expired, failed, pending, answered, median, p95)
            in figures.decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64?, Int64?).self) {
            consent = ["questionsSent": Self.number(sent), "approved": Self.number(approved), "denied": Self.number(denied),
                       "expired": Self.number(expired), "failed": Self.number(failed), "pendingAtPeriodEnd": Self.number(pending),
                       "timeToAnswer": ["answered": Self.number(answered), "medianSeconds": median.map(Self.number) ?? .null,
                                        "p95Seconds": p95.map(Self.number) ?? .null]]
        }
        consent["oldestPending"] = try await oldestPending(on: connection)
        consent["timeToAnswerDistribution"] = try await timeToAnswerDistribution(on: connection)
        consent["outcomesByWeek"] = try await outcomesByWeek(on: connection)
        return consent
    }

    private func oldestPending(on connection: PostgresConnection) async throws -> JSONValue {
        let rows = try await run(ReportSQL.Regulator.oldestPending, on: connection)
        for try await (ref, subject, askedAt, age, position, eventId)
            in rows.decode((String, String?, String, Int64, Int64, String).self) {
            return ["questionId": .string(ref), "subject": subject.map(JSONValue.string) ?? .null, "askedAt": .string(askedAt),
                    "ageSeconds": Self.number(age), "evidencePositions": [Self.number(position)], "evidenceEventIds": [.string(eventId)]]
        }
        return .null
    }

    private func timeToAnswerDistribution(on connection: PostgresConnection) async throws -> JSONValue {
        let buckets = RegulatorVocabulary.timeToAnswerBuckets
        let bounds = buckets.dropFirst().map { Double($0.from) }
        var counts = [Int64](repeating: 0, count: buckets.count)
        for try await (bucket, count) in try await run(ReportSQL.Regulator.timeToAnswer, extra: bounds, on: connection)
            .decode((Int32, Int64).self) {
            counts[Int(bucket)] += count
        }
        return .array(zip(buckets, counts).map { bucket, count in
            ["label": .string(bucket.label), "fromSeconds": .number(Double(bucket.from)),
             "toSeconds": bucket.to.map { .number(Double($0)) } ?? .null, "count": Self.number(count)]
        })
    }

    private func outcomesByWeek(on connection: PostgresConnection) async throws -> JSONValue {
        var weeks: [String: [String: Int64]] = [:]
        let rows = try await run(ReportSQL.Regulator.outcomesByWeek, on: connection)
        for try await (week, type, outcome, count) in rows.decode((String, String, String, Int64).self) {
            if type == "PermissionQuestionSent" { weeks[week, default: [:]]["sent", default: 0] += count }
            weeks[week, default: [:]][outcome, default: 0] += count
        }
        return .array(Self.weekStarts(from: parameters.from, to: parameters.to).map { week in
            let counts = weeks[week] ?? [:]
            var row: [String: JSONValue] = ["weekStart": .string(week)]
            for (member, key) in [("sent", "sent"), ("approved", "approval"), ("denied", "denial"), ("expired", "expired"),
                                  ("failed", "failed"), ("pending", "pending")] {
                row[member] = Self.number(counts[key] ?? 0)
            }
            return .object(row)
        })
    }

    /// The Mondays (UTC, `YYYY-MM-DD`) of every ISO week that overlaps [from, to).
    static func weekStarts(from: Date, to: Date) -> [String] {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard var monday = calendar.dateInterval(of: .weekOfYear, for: from)?.start else { return [] }
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        var weeks: [String] = []
        while monday < to {
            weeks.append(formatter.string(from: monday))
            monday = calendar.date(byAdding: .day, value: 7, to: monday)!
        }
        return weeks
    }
}
