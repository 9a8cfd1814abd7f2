import LedgerCore
import PostgresNIO

extension RegulatorQuery {
    /// Each significant change declared in the period, or asked about or acknowledged in it: its
    /// declaration (the first, at positions up to the report's), when the developer first notified
    /// a store of it, the minors asked about it and how many of them approved or denied by the
    /// period's end, and the adults who acknowledged it.
    func significantChanges(on connection: PostgresConnection) async throws -> JSONValue {
        var changes: [JSONValue] = []
        let rows = try await run(ReportSQL.Regulator.significantChanges, on: connection)
        for try await (changeId, app, version, declaredAt, position, eventId, notifiedAt, notice, noticeId, minors, approved, denied, adults)
            in rows.decode((String, String?, String?, String?, Int64?, String?, String?, Int64?, String?, Int64, Int64, Int64, Int64).self) {
            changes.append(["changeId": .string(changeId), "app": app.map(JSONValue.string) ?? .null,
                            "introducedInVersion": version.map(JSONValue.string) ?? .null,
                            "declaredAt": declaredAt.map(JSONValue.string) ?? .null,
                            "notifiedToStoreAt": notifiedAt.map(JSONValue.string) ?? .null,
                            "minorsAsked": Self.number(minors), "approved": Self.number(approved), "denied": Self.number(denied),
                            "adultsAcknowledged": Self.number(adults),
                            "evidencePositions": .array([position, notice].compactMap { $0.map(Self.number) }),
                            "evidenceEventIds": .array([eventId, noticeId].compactMap { $0.map(JSONValue.string) })])
        }
        return .array(changes)
    }

    /// Age-rating exceptions requested in the period and their first decision by its end, by rating;
    /// and from the period's counts, the installs by outcome, the devices' rating limits observed,
    /// and the Approve in Person sheets shown and failed.
    func exceptions(_ counts: RegulatorCounts, on connection: PostgresConnection) async throws -> JSONValue {
        var requested: Int64 = 0, byMessage: Int64 = 0, inPerson: Int64 = 0, declined: Int64 = 0
        var byRating: [String: (requested: Int64, approved: Int64, declined: Int64)] = [:]
        let rows = try await run(ReportSQL.Regulator.exceptions, on: connection)
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
        let presented = counts.outcomes(of: ApproveInPersonPresented.eventType, scope.codes).values.reduce(0, +)
        let failed = counts.outcomes(of: ApproveInPersonFailed.eventType, scope.codes).values.reduce(0, +)
        return ["installsByOutcome": Self.keyCounts(counts.outcomes(of: InstallAttempted.eventType, scope.codes),
                                                    keys: RegulatorVocabulary.installOutcomes),
                "deviceRatingLimits": Self.keyCounts(counts.outcomes(of: DeviceRatingLimitObserved.eventType, scope.codes),
                                                     keys: RegulatorVocabulary.ratingLimits),
                "approveInPerson": ["presented": Self.number(presented), "failed": Self.number(failed)],
                "requested": Self.number(requested), "approvedByMessage": Self.number(byMessage),
                "approvedInPerson": Self.number(inPerson), "declined": Self.number(declined),
                "byRatedAge": .array(ratings.map { rating in
                    let counts = byRating[rating] ?? (0, 0, 0)
                    return ["ratedAge": .string(rating), "requested": Self.number(counts.requested),
                            "approved": Self.number(counts.approved), "declined": Self.number(counts.declined)]
                })]
    }
}
