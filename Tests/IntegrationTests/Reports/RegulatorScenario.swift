import Foundation
import LedgerCore
import LedgerPostgres

/// A hand-built history for the regulator report, small enough to check by hand. The period is the
/// first two weeks of October 2026 in Texas; the expected figures (RegulatorReportTests) were worked
/// out from this list before the report was run.
///
/// App A is com.example.kidsdraw, M the marketplace. Jurisdiction US-TX unless said otherwise.
///
///  #  occurred (UTC)        event
///  1  09-20 10:00           SignificantChangeDeclared c-rooms (A, 3.0.0, "Rooms …")      before the period
///  2  09-30 12:00   k1      AgeRangeRequested download                                      before the period
///  3  10-01 09:00   k1      AgeRangeShared 13-15 guardianDeclared, approval required
///  4  10-01 09:05   k1      PermissionQuestionSent q1 "Rooms …" (no changeId: linked by description)
///  5  10-01 11:05   k1      ParentalAnswerReceived q1 approval (7,200 s)
///  6  10-02 08:00   k2      AgeRangeRequested launch
///  7  10-02 08:00:05 k2     AgeRangeShared under 13 selfDeclared, approval required
///  8  10-02 08:10   k2      PermissionQuestionSent q2 changeId c-rooms, expires 10-03 08:10
///  9  10-03 09:00   k2      QuestionExpired q2
/// 10  10-03 10:00   k2      ParentalAnswerReceived q2 approval (93,000 s): answer-after-question-expired
/// 11  10-05 07:00   k3      AgeRangeShared 16-17 guardianDeclared, approval required (A 2.5.0: before the change)
/// 12  10-05 07:01   k3      AccessGateApplied open rooms (A 3.0.0): access-without-approval
/// 13  10-06 12:00   k3      PermissionQuestionSent q3 changeId c-rooms
/// 14  10-07 12:00   k3      ParentalAnswerReceived q3 denial (86,400 s)
/// 15  10-08 09:00   k1      PermissionQuestionSent q4 custom topic "chat": pending at the period's end
/// 16  10-09 10:00   k2      PermissionQuestionFailed q5 systemError
/// 17  10-09 12:00   k1      ConsentRescinded (A)
/// 18  10-09 13:30   k1      AccessGateApplied closed rooms: enforced after 5,400 s
/// 19  10-10 12:00   k2      ConsentRescinded (A), never enforced: rescission-not-enforced
/// 20  10-12 08:00   a1      AgeRangeRequested backfill
/// 21  10-12 08:00:03 a1     AgeRangeShared 18+ confirmed
/// 22  10-12 08:01   a1      SignificantChangeAcknowledged c-rooms
/// 23  10-12 09:00   k4      AgeRangeRequested download                          US-CA
/// 24  10-12 09:00:05 k4     AgeRangeDeclined                                    US-CA
/// 25  10-13 09:00   k5      AgeRangeRequestFailed notAvailable                  GB
/// 26  10-13 10:00   k6      AgeRangeRequested launch                            no jurisdiction
/// 27  10-13 11:00   k1      AgeExceptionRequested ex-1 (M, 16+)
/// 28  10-13 11:30   k1      AgeExceptionDecided ex-1 approved in person
/// 29  10-14 11:00   k3      AgeExceptionRequested ex-2 (M, 18+)
/// 30  10-14 15:00   k3      AgeExceptionDecided ex-2 declined by message
/// 31  10-14 20:00   k2      AgeExceptionRequested ex-3 (M, 16+)
/// 32  10-14 22:00   k2      SubjectErased (erasureRequest), no app                no jurisdiction
/// 33  10-14 23:00           RetentionApplied retention-2026-01 (2 subjects)       no jurisdiction
/// 34  10-16 09:00   k2      AgeExceptionDecided ex-3 approved                     after the period
/// 35  10-16 10:00   k1      ParentalAnswerReceived q4 approval                    after the period
enum RegulatorScenario {
    static let log = "tx"
    static let from = AsOf.date("2026-10-01T00:00:00Z")!
    static let to = AsOf.date("2026-10-15T00:00:00Z")!
    static let appA = "com.example.kidsdraw", market = "com.example.marketplace"
    static let rooms = "Rooms: draw together with friends."
    static let q1 = "a1000000-0000-4000-8000-000000000001", q2 = "a1000000-0000-4000-8000-000000000002"
    static let q3 = "a1000000-0000-4000-8000-000000000003", q4 = "a1000000-0000-4000-8000-000000000004"
    static let q5 = "a1000000-0000-4000-8000-000000000005"

    /// The event id of position `n`.
    static func id(_ n: Int) -> String { String(format: "e0000000-0000-4000-8000-%012d", n) }

    /// Appends the 35 events (the erasure through `EventStore.erase` and the retention run through
    /// `EventStore.applyRetention`, as the CLI does: the ledger's own facts come only through their
    /// operations, decision 0056).
    static func append(_ db: TestDatabase) async throws {
        let events = try lines.map { try EventInput(json: $0) }
        try await db.as(.administrator) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: log, events: Array(events[0..<31]))
            _ = try await store.erase(log: log, subject: "p_k2", erasure: events[31])
            _ = try await store.applyRetention(log: log, retention: events[32])
            _ = try await store.append(log: log, events: Array(events[33...]))
        }
    }

    static var lines: [JSONValue] {
        let tx: JSONValue = ["code": "US-TX", "basis": "asserted"]
        let approvalRequired: JSONValue = ["significantAppChangeApprovalRequired"]
        let choices: JSONValue = [["id": "allow", "title": "Allow", "answer": "approval"], ["id": "deny", "title": "Don't Allow", "answer": "denial"]]
        func e(_ n: Int, _ type: String, _ at: String, _ subject: String?, stream: String? = nil, app: String? = appA,
               version: String = "3.0.0", jurisdiction: JSONValue = tx, actor: String = "app", _ payload: JSONValue) -> JSONValue {
            var event: [String: JSONValue] = [
                "eventId": .string(id(n)), "stream": .string(stream ?? "subject-\(subject ?? "none")"), "type": .string(type),
                "schemaVersion": type == "AgeRangeShared" ? 2 : 1, "occurredAt": .string("2026-" + at + "Z"),
                "actor": ["kind": .string(actor)], "payload": payload,
            ]
            if let subject { event["subject"] = .string(subject) }
            if let app { event["app"] = ["bundleId": .string(app), "appVersion": .string(version), "platform": "iOS"] }
            if !jurisdiction.isNull { event["jurisdiction"] = jurisdiction }
            return .object(event)
        }
        func question(_ q: String) -> String { "question-" + q }
        func exception(_ x: String) -> String { "exception-" + x }
        return [
            e(1, "SignificantChangeDeclared", "09-20T10:00:00", nil, stream: "change-c-rooms",
              ["changeId": "c-rooms", "introducedInVersion": "3.0.0", "description": .string(rooms), "ageRatingBefore": "9+", "ageRatingAfter": "13+"]),
            e(2, "AgeRangeRequested", "09-30T12:00:00", "p_k1", ["ageGates": [13, 16, 18], "trigger": "download"]),
            e(3, "AgeRangeShared", "10-01T09:00:00", "p_k1", actor: "guardian",
              ["lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "guardianDeclared", "activeParentalControls": approvalRequired]),
            e(4, "PermissionQuestionSent", "10-01T09:05:00", "p_k1", stream: question(q1),
              ["questionId": .string(q1), "topic": ["significantAppUpdate": ["description": .string(rooms)]], "choices": choices,
               "expirationDate": "2026-10-08T09:05:00Z", "sentVia": "askCenter"]),
            e(5, "ParentalAnswerReceived", "10-01T11:05:00", "p_k1", stream: question(q1), actor: "guardian",
              ["questionId": .string(q1), "choiceId": "allow", "choiceTitle": "Allow", "answer": "approval",
               "receivedAt": "2026-10-01T11:05:00Z", "guardianId": "g_1", "channel": "message"]),
            e(6, "AgeRangeRequested", "10-02T08:00:00", "p_k2", ["ageGates": [13, 16, 18], "trigger": "launch"]),
            e(7, "AgeRangeShared", "10-02T08:00:05", "p_k2",
              ["upperBound": 12, "ageRangeDeclaration": "selfDeclared", "activeParentalControls": approvalRequired]),
            e(8, "PermissionQuestionSent", "10-02T08:10:00", "p_k2", stream: question(q2),
              ["questionId": .string(q2), "changeId": "c-rooms", "topic": ["significantAppUpdate": ["description": .string(rooms)]],
               "choices": choices, "expirationDate": "2026-10-03T08:10:00Z", "sentVia": "askCenter"]),
            e(9, "QuestionExpired", "10-03T09:00:00", "p_k2", stream: question(q2),
              ["questionId": .string(q2), "expirationDate": "2026-10-03T08:10:00Z"]),
            e(10, "ParentalAnswerReceived", "10-03T10:00:00", "p_k2", stream: question(q2), actor: "guardian",
              ["questionId": .string(q2), "choiceId": "allow", "choiceTitle": "Allow", "answer": "approval",
               "receivedAt": "2026-10-03T10:00:00Z", "channel": "message"]),
            e(11, "AgeRangeShared", "10-05T07:00:00", "p_k3", version: "2.5.0", actor: "guardian",
              ["lowerBound": 16, "upperBound": 17, "ageRangeDeclaration": "guardianDeclared", "activeParentalControls": approvalRequired]),
            e(12, "AccessGateApplied", "10-05T07:01:00", "p_k3",
              ["feature": "rooms", "state": "open", "basis": [.string(id(11))], "policyVersion": "2026-10"]),
            e(13, "PermissionQuestionSent", "10-06T12:00:00", "p_k3", stream: question(q3),
              ["questionId": .string(q3), "changeId": "c-rooms", "topic": ["significantAppUpdate": ["description": .string(rooms)]],
               "choices": choices, "expirationDate": "2026-10-20T12:00:00Z", "sentVia": "askCenter"]),
            e(14, "ParentalAnswerReceived", "10-07T12:00:00", "p_k3", stream: question(q3), actor: "guardian",
              ["questionId": .string(q3), "choiceId": "deny", "choiceTitle": "Don't Allow", "answer": "denial",
               "receivedAt": "2026-10-07T12:00:00Z", "channel": "message"]),
            e(15, "PermissionQuestionSent", "10-08T09:00:00", "p_k1", stream: question(q4),
              ["questionId": .string(q4), "topic": ["custom": ["name": "chat"]], "choices": choices,
               "expirationDate": "2026-11-30T09:00:00Z", "sentVia": "permissionButton"]),
            e(16, "PermissionQuestionFailed", "10-09T10:00:00", "p_k2", stream: question(q5),
              ["questionId": .string(q5), "error": "systemError"]),
            e(17, "ConsentRescinded", "10-09T12:00:00", "p_k1", actor: "appStore",
              ["notificationUUID": "b1000000-0000-4000-8000-000000000017", "signedDate": 1_791_547_200_000, "appAppleId": 6_400_000_001,
               "bundleId": .string(appA), "environment": "Production", "signatureCheck": "valid", "enforcementAction": "accessRevoked"]),
            e(18, "AccessGateApplied", "10-09T13:30:00", "p_k1",
              ["feature": "rooms", "state": "closed", "basis": [.string(id(17))], "policyVersion": "2026-10"]),
            e(19, "ConsentRescinded", "10-10T12:00:00", "p_k2", actor: "appStore",
              ["notificationUUID": "b1000000-0000-4000-8000-000000000019", "signedDate": 1_791_633_600_000, "appAppleId": 6_400_000_001,
               "bundleId": .string(appA), "environment": "Production", "signatureCheck": "valid", "enforcementAction": "pending"]),
            e(20, "AgeRangeRequested", "10-12T08:00:00", "p_a1", ["ageGates": [18], "trigger": "backfill"]),
            e(21, "AgeRangeShared", "10-12T08:00:03", "p_a1", actor: "subject",
              ["lowerBound": 18, "ageRangeDeclaration": "confirmed", "activeParentalControls": []]),
            e(22, "SignificantChangeAcknowledged", "10-12T08:01:00", "p_a1", stream: "change-c-rooms", actor: "subject",
              ["changeId": "c-rooms", "handledBy": "showSignificantUpdateAcknowledgment"]),
            e(23, "AgeRangeRequested", "10-12T09:00:00", "p_k4", jurisdiction: ["code": "US-CA", "basis": "asserted"],
              ["ageGates": [13, 16, 18], "trigger": "download"]),
            e(24, "AgeRangeDeclined", "10-12T09:00:05", "p_k4", jurisdiction: ["code": "US-CA", "basis": "asserted"], actor: "subject", [:]),
            e(25, "AgeRangeRequestFailed", "10-13T09:00:00", "p_k5", jurisdiction: ["code": "GB", "basis": "storefront"],
              ["error": "notAvailable"]),
            e(26, "AgeRangeRequested", "10-13T10:00:00", "p_k6", jurisdiction: nil, ["ageGates": [13, 16], "trigger": "launch"]),
            e(27, "AgeExceptionRequested", "10-13T11:00:00", "p_k1", stream: exception("ex-1"), app: market,
              ["exceptionId": "ex-1", "appleItemID": 6_471_000_001, "ageRating": 416]),
            e(28, "AgeExceptionDecided", "10-13T11:30:00", "p_k1", stream: exception("ex-1"), app: market, actor: "guardian",
              ["exceptionId": "ex-1", "decision": "approved", "channel": "inPerson", "decidedAt": "2026-10-13T11:30:00Z",
               "guardianAuthenticated": true]),
            e(29, "AgeExceptionRequested", "10-14T11:00:00", "p_k3", stream: exception("ex-2"), app: market,
              ["exceptionId": "ex-2", "appleItemID": 6_471_000_002, "ageRating": 618]),
            e(30, "AgeExceptionDecided", "10-14T15:00:00", "p_k3", stream: exception("ex-2"), app: market, actor: "guardian",
              ["exceptionId": "ex-2", "decision": "declined", "channel": "message", "decidedAt": "2026-10-14T15:00:00Z"]),
            e(31, "AgeExceptionRequested", "10-14T20:00:00", "p_k2", stream: exception("ex-3"), app: market,
              ["exceptionId": "ex-3", "appleItemID": 6_471_000_001, "ageRating": 416]),
            e(32, "SubjectErased", "10-14T22:00:00", "p_k2", app: nil, jurisdiction: nil, actor: "ledger",
              ["subjectId": "p_k2", "reason": "erasureRequest"]),
            e(33, "RetentionApplied", "10-14T23:00:00", nil, stream: "retention", app: nil, jurisdiction: nil, actor: "ledger",
              ["policyId": "retention-2026-01", "scope": "projectionRows", "reason": "retentionPeriodElapsed",
               "cutoff": "2025-10-14T00:00:00Z", "subjectIds": ["p_old1", "p_old2"]]),
            e(34, "AgeExceptionDecided", "10-16T09:00:00", "p_k2", stream: exception("ex-3"), app: market, actor: "guardian",
              ["exceptionId": "ex-3", "decision": "approved", "channel": "message", "decidedAt": "2026-10-16T09:00:00Z"]),
            e(35, "ParentalAnswerReceived", "10-16T10:00:00", "p_k1", stream: question(q4), actor: "guardian",
              ["questionId": .string(q4), "choiceId": "allow", "choiceTitle": "Allow", "answer": "approval",
               "receivedAt": "2026-10-16T10:00:00Z", "channel": "message"]),
        ]
    }
}
