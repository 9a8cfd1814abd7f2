import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// Each significant change declared in the period, or asked about or acknowledged in it: its
    /// declaration (the first, at positions up to the report's), the minors asked about it and how
    /// many of them approved or denied by the period's end, and the adults who acknowledged it.
    func significantChanges(on connection: PostgresConnection) async throws -> JSONValue {
        var changes: [JSONValue] = []
        let rows = try await run("""
            WITH asked AS (
                   SELECT change_id, count(DISTINCT subject) AS minors,
                          count(DISTINCT subject) FILTER (WHERE outcome = 'approval') AS approved,
                          count(DISTINCT subject) FILTER (WHERE outcome = 'denial') AS denied
                     FROM regulator_questions
                    WHERE type = 'PermissionQuestionSent' AND change_id IS NOT NULL
                    GROUP BY change_id),
                 acknowledged AS (
                   SELECT ref AS change_id, count(DISTINCT subject) AS adults
                     FROM regulator_period
                    WHERE type = 'SignificantChangeAcknowledged' AND ref IS NOT NULL
                    GROUP BY ref),
                 ids AS (
                   SELECT ref AS change_id FROM regulator_period
                    WHERE type = 'SignificantChangeDeclared' AND ref IS NOT NULL
                   UNION SELECT change_id FROM asked
                   UNION SELECT change_id FROM acknowledged)
            SELECT ids.change_id, d.bundle_id, d.version, \(Self.utc("d.occurred_at")), d.position, d.event_id::text,
                   coalesce(a.minors, 0)::bigint, coalesce(a.approved, 0)::bigint, coalesce(a.denied, 0)::bigint,
                   coalesce(k.adults, 0)::bigint
              FROM ids
              LEFT JOIN LATERAL (SELECT d.bundle_id, d.version, d.occurred_at, d.position, d.event_id FROM facts d
                                  WHERE d.log_id = $1 AND d.ref = ids.change_id AND d.type = 'SignificantChangeDeclared'
                                    AND d.position <= $2
                                  ORDER BY d.position LIMIT 1) d ON true
              LEFT JOIN asked a ON a.change_id = ids.change_id
              LEFT JOIN acknowledged k ON k.change_id = ids.change_id
             ORDER BY d.position NULLS LAST, ids.change_id
            """, on: connection)
        for try await (changeId, app, version, declaredAt, position, eventId, minors, approved, denied, adults)
            in rows.decode((String, String?, String?, String?, Int64?, String?, Int64, Int64, Int64, Int64).self) {
            changes.append(["changeId": .string(changeId), "app": app.map(JSONValue.string) ?? .null,
                            "introducedInVersion": version.map(JSONValue.string) ?? .null,
                            "declaredAt": declaredAt.map(JSONValue.string) ?? .null,
                            "minorsAsked": Self.number(minors), "approved": Self.number(approved), "denied": Self.number(denied),
                            "adultsAcknowledged": Self.number(adults),
                            "evidencePositions": .array(position.map { [Self.number($0)] } ?? []),
                            "evidenceEventIds": .array(eventId.map { [.string($0)] } ?? [])])
        }
        return .array(changes)
    }

    /// Age-rating exceptions requested in the period and their first decision by its end, by rating.
    func exceptions(on connection: PostgresConnection) async throws -> JSONValue {
        var requested: Int64 = 0, byMessage: Int64 = 0, inPerson: Int64 = 0, declined: Int64 = 0
        var byRating: [String: (requested: Int64, approved: Int64, declined: Int64)] = [:]
        let rows = try await run("""
            SELECT coalesce(r.rated_age, 'not stated'), d.answer, d.channel, count(*)::bigint
              FROM (SELECT DISTINCT ON (p.ref) p.ref, p.position, p.rated_age FROM regulator_period p
                     WHERE p.type = 'AgeExceptionRequested' AND p.ref IS NOT NULL
                     ORDER BY p.ref, p.position) r
              LEFT JOIN LATERAL (SELECT o.answer, o.channel FROM facts o
                                  WHERE o.log_id = $1 AND o.ref = r.ref AND o.type = 'AgeExceptionDecided'
                                    AND o.position > r.position AND o.position <= $2 AND o.occurred_at < $4
                                  ORDER BY o.position LIMIT 1) d ON true
             GROUP BY 1, 2, 3
            """, on: connection)
        for try await (rating, decision, channel, count) in rows.decode((String, String?, String?, Int64).self) {
            requested += count
            byRating[rating, default: (0, 0, 0)].requested += count
            if decision == "approved" {
                if channel == "inPerson" { inPerson += count } else { byMessage += count }
                byRating[rating, default: (0, 0, 0)].approved += count
            } else if decision == "declined" {
                declined += count
                byRating[rating, default: (0, 0, 0)].declined += count
            }
        }
        let ratings = RegulatorVocabulary.ratings + byRating.keys.filter { !RegulatorVocabulary.ratings.contains($0) }.sorted()
        return ["requested": Self.number(requested), "approvedByMessage": Self.number(byMessage),
                "approvedInPerson": Self.number(inPerson), "declined": Self.number(declined),
                "byRatedAge": .array(ratings.map { rating in
                    let counts = byRating[rating] ?? (0, 0, 0)
                    return ["ratedAge": .string(rating), "requested": Self.number(counts.requested),
                            "approved": Self.number(counts.approved), "declined": Self.number(counts.declined)]
                })]
    }
}
