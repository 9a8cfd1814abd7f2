import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// A subscription's next items (decision 0083): its events of the asked types and its findings of
/// the asked kinds and rules, after its cursor and up to the position the anomalies projection has
/// judged the log through (so an event is never sent before a finding at an earlier position could
/// be), in log order: at a position the event first, then its findings by rule. Read in one
/// snapshot, on the deliverer's own connection (the one holding the subscription's lock, so a pass
/// needs one connection, never two), with the log in every statement's `WHERE`: no subscription is
/// handed another log's items.
enum SubscriptionItems {
    static func read(_ target: SubscriptionTarget, limit: Int, on connection: PostgresConnection, logger: Logger) async throws -> [WebhookItem] {
        let limit = Int64(max(1, limit))
        let (log, after) = (target.log, target.cursor)
        return try await connection.inTransaction(logger: logger, beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            guard try await ProjectionSchema.exists("anomalies", on: connection, logger: logger) else { return [] }
            var judged: Int64 = 0
            for try await position in try await connection.watchedQuery(
                "SELECT position FROM anomalies.checkpoints WHERE log_id = \(log)", logger: logger).decode(Int64.self) { judged = position }
            guard judged > after.position || (judged == after.position && after.rule != nil) else { return [] }
            var events: [WebhookItem] = []
            if !target.eventTypes.isEmpty {
                for try await (position, eventId, type, stream, subject, occurred, recorded, record) in try await connection.watchedQuery("""
                    SELECT position, event_id::text, type, stream, subject,
                           to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                           to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), record
                      FROM ledger.events
                     WHERE log_id = \(log) AND type = ANY(\(target.eventTypes)) AND position > \(after.position) AND position <= \(judged)
                     ORDER BY position LIMIT \(limit)
                    """, logger: logger).decode((Int64, String, String, String, String?, String, String, ByteBuffer).self) {
                    let parsed = try JSONParser.parse(Array(buffer: record))
                    events.append(WebhookItem(position: position, content: .event(WebhookItem.Event(
                        eventId: eventId, type: type, stream: stream, subject: subject, occurredAt: occurred, recordedAt: recorded,
                        record: parsed))))
                }
            }
            var findings: [WebhookItem] = []
            if !target.findingSources.isEmpty {
                for try await (rule, source, position, eventId, subject, detail, evidence) in try await connection.watchedQuery("""
                    SELECT kind, source, position, event_id::text, subject, detail, evidence FROM anomalies.findings
                     WHERE log_id = \(log) AND source = ANY(\(target.findingSources))
                       AND (cardinality(\(target.rules)::text[]) = 0 OR kind = ANY(\(target.rules)))
                       AND (position > \(after.position)
                            OR (position = \(after.position) AND \(after.rule)::text IS NOT NULL AND kind COLLATE "C" > \(after.rule)))
                       AND position <= \(judged)
                     ORDER BY position, kind COLLATE "C" LIMIT \(limit)
                    """, logger: logger).decode((String, String, Int64, String, String?, String, [Int64]).self) {
                    findings.append(WebhookItem(position: position, content: .finding(FindingsFeed.Item(
                        log: log, kind: LedgerRule.Kind(findingSource: source), rule: rule, position: position, eventId: eventId,
                        subject: subject, detail: detail, evidence: evidence))))
                }
            }
            return Array(merge(events, findings).prefix(Int(limit)))
        }
    }

    /// Two lists in log order merged: at a position, the event before its findings.
    static func merge(_ events: [WebhookItem], _ findings: [WebhookItem]) -> [WebhookItem] {
        var merged: [WebhookItem] = []
        merged.reserveCapacity(events.count + findings.count)
        var (e, f) = (0, 0)
        while e < events.count || f < findings.count {
            if f == findings.count || (e < events.count && events[e].position <= findings[f].position) {
                merged.append(events[e])
                e += 1
            } else {
                merged.append(findings[f])
                f += 1
            }
        }
        return merged
    }
}
