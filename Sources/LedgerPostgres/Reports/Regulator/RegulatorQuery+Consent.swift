import Foundation
import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// PermissionKit questions asked (or that failed to be asked) in the period and what became of
    /// each by its end: the first answer, else a QuestionExpired, else a PermissionQuestionFailed,
    /// else pending (the consent register's order).
    func consent(on connection: PostgresConnection) async throws -> [String: JSONValue] {
        _ = try await run("""
            CREATE TEMPORARY TABLE regulator_questions ON COMMIT DROP AS
            SELECT q.ref, q.type, q.position, q.event_id, q.subject, q.occurred_at, q.change_id,
                   CASE WHEN q.type = 'PermissionQuestionFailed' THEN 'failed'
                        WHEN o.answer_position IS NOT NULL THEN a.answer
                        WHEN o.expired_position IS NOT NULL THEN 'expired'
                        WHEN o.failed_position IS NOT NULL THEN 'failed'
                        ELSE 'pending' END AS outcome,
                   CASE WHEN q.type = 'PermissionQuestionSent'
                        THEN extract(epoch FROM a.answered_at - q.occurred_at)::float8 END AS seconds
              FROM (SELECT DISTINCT ON (p.ref) p.ref, p.type, p.position, p.event_id, p.subject, p.occurred_at, p.change_id
                      FROM regulator_period p
                     WHERE p.type IN ('PermissionQuestionSent', 'PermissionQuestionFailed') AND p.ref IS NOT NULL
                     ORDER BY p.ref, p.position) q
             CROSS JOIN LATERAL (
                   SELECT min(o.position) FILTER (WHERE o.type = 'ParentalAnswerReceived') AS answer_position,
                          min(o.position) FILTER (WHERE o.type = 'QuestionExpired') AS expired_position,
                          min(o.position) FILTER (WHERE o.type = 'PermissionQuestionFailed') AS failed_position
                     FROM facts o
                    WHERE o.log_id = $1 AND o.ref = q.ref AND o.position > q.position AND o.position <= $2
                      AND o.occurred_at < $4
                      AND o.type IN ('ParentalAnswerReceived', 'QuestionExpired', 'PermissionQuestionFailed')) o
              LEFT JOIN facts a ON a.log_id = $1 AND a.position = o.answer_position
            """, on: connection)
        try await connection.watchedQuery("ANALYZE regulator_questions", logger: logger)
        var consent: [String: JSONValue] = [:]
        for try await (sent, approved, denied, expired, failed, pending, answered, median, p95) in try await run("""
            SELECT count(*) FILTER (WHERE type = 'PermissionQuestionSent')::bigint,
                   count(*) FILTER (WHERE outcome = 'approval')::bigint, count(*) FILTER (WHERE outcome = 'denial')::bigint,
                   count(*) FILTER (WHERE outcome = 'expired')::bigint, count(*) FILTER (WHERE outcome = 'failed')::bigint,
                   count(*) FILTER (WHERE outcome = 'pending')::bigint, count(seconds)::bigint,
                   round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds))::bigint,
                   round(percentile_cont(0.95) WITHIN GROUP (ORDER BY seconds))::bigint
              FROM regulator_questions
            """, on: connection).decode((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64?, Int64?).self) {
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
        for try await (ref, subject, askedAt, age, position, eventId) in try await run("""
            SELECT ref, subject, \(Self.utc("occurred_at")), extract(epoch FROM $4 - occurred_at)::bigint, position, event_id::text
              FROM regulator_questions WHERE outcome = 'pending'
             ORDER BY occurred_at, position LIMIT 1
            """, on: connection).decode((String, String?, String, Int64, Int64, String).self) {
            return ["questionId": .string(ref), "subject": subject.map(JSONValue.string) ?? .null, "askedAt": .string(askedAt),
                    "ageSeconds": Self.number(age), "evidencePositions": [Self.number(position)], "evidenceEventIds": [.string(eventId)]]
        }
        return .null
    }

    private func timeToAnswerDistribution(on connection: PostgresConnection) async throws -> JSONValue {
        let buckets = RegulatorVocabulary.timeToAnswerBuckets
        let bounds = buckets.dropFirst().map { String($0.from) }.joined(separator: ",")
        var counts = [Int64](repeating: 0, count: buckets.count)
        for try await (bucket, count) in try await run("""
            SELECT width_bucket(seconds, ARRAY[\(bounds)]::float8[]), count(*)::bigint
              FROM regulator_questions WHERE seconds IS NOT NULL GROUP BY 1
            """, on: connection).decode((Int32, Int64).self) {
            counts[Int(bucket)] += count
        }
        return .array(zip(buckets, counts).map { bucket, count in
            ["label": .string(bucket.label), "fromSeconds": .number(Double(bucket.from)),
             "toSeconds": bucket.to.map { .number(Double($0)) } ?? .null, "count": Self.number(count)]
        })
    }

    private func outcomesByWeek(on connection: PostgresConnection) async throws -> JSONValue {
        var weeks: [String: [String: Int64]] = [:]
        for try await (week, type, outcome, count) in try await run("""
            SELECT to_char(date_trunc('week', occurred_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), type, outcome, count(*)::bigint
              FROM regulator_questions GROUP BY 1, 2, 3
            """, on: connection).decode((String, String, String, Int64).self) {
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
