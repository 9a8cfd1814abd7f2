import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import Testing

/// The facts of the device and the stores (issue 38, items 3 and 5): eligibility checks, the
/// devices' rating limits, install outcomes, Approve in Person shown and failed, the app store's
/// consent status and a notice of a significant change, in the regulator report's figures and in
/// the subject's state. Twelve events in Utah, in October 2026, counted by hand:
///
///  #  subject  event
///  1           SignificantChangeDeclared c-x
///  2           SignificantChangeNotifiedToStore c-x, App Store, 4 minutes later (events 4 minutes apart)
///  3  k1       EligibilityChecked: eligible          4  k2  EligibilityChecked: notAvailable
///  5  k1       DeviceRatingLimitObserved 313 (13+)   6  k2  DeviceRatingLimitObserved 2000 (no limit)
///  7  k1       InstallAttempted installed            8  k2  InstallAttempted ratingRestricted
///  9  k1       ApproveInPersonPresented             10  k2  ApproveInPersonFailed
/// 11  k1       StoreConsentStatusReceived download: obtained
/// 12  k2       StoreConsentStatusReceived significantChange c-x: pending
@Suite("Regulator report: the device's and the stores' facts")
struct RegulatorStoreFactsTests {
    static let log = "ut"

    static var lines: [JSONValue] {
        func e(_ n: Int, _ type: String, _ subject: String?, stream: String? = nil, _ payload: JSONValue) -> JSONValue {
            var event: [String: JSONValue] = [
                "eventId": .string(String(format: "e1000000-0000-4000-8000-%012d", n)),
                "stream": .string(stream ?? "subject-\(subject ?? "none")"), "type": .string(type), "schemaVersion": 1,
                "occurredAt": .string(String(format: "2026-10-02T10:%02d:00Z", n * 4)), "actor": ["kind": "app"],
                "app": ["bundleId": "com.example.kidsdraw", "appVersion": "3.0.0", "platform": "iOS"],
                "jurisdiction": ["code": "US-UT", "basis": "asserted"], "payload": payload,
            ]
            if let subject { event["subject"] = .string(subject) }
            return .object(event)
        }
        return [
            e(1, "SignificantChangeDeclared", nil, stream: "change-c-x",
              ["changeId": "c-x", "introducedInVersion": "3.0.0", "description": "Rooms.", "ageRatingBefore": "9+", "ageRatingAfter": "13+"]),
            e(2, "SignificantChangeNotifiedToStore", nil, stream: "change-c-x", ["changeId": "c-x", "store": "appStore"]),
            e(3, "EligibilityChecked", "p_k1", ["isEligibleForAgeFeatures": true]),
            e(4, "EligibilityChecked", "p_k2", ["error": "notAvailable"]),
            e(5, "DeviceRatingLimitObserved", "p_k1", ["maximumAllowedAgeRating": 313]),
            e(6, "DeviceRatingLimitObserved", "p_k2", ["maximumAllowedAgeRating": 2000]),
            e(7, "InstallAttempted", "p_k1", ["appleItemID": 6_471_000_001, "ageRating": 200, "requestAgeException": false, "outcome": "installed"]),
            e(8, "InstallAttempted", "p_k2", ["appleItemID": 6_471_000_002, "ageRating": 416, "requestAgeException": false,
                                              "outcome": "ratingRestricted"]),
            e(9, "ApproveInPersonPresented", "p_k1", ["appleItemID": 6_471_000_003, "exceptionId": "ex-9"]),
            e(10, "ApproveInPersonFailed", "p_k2", ["error": "missingAgeRatingExceptionRequest", "appleItemID": 6_471_000_003]),
            e(11, "StoreConsentStatusReceived", "p_k1", ["store": "appStore", "purpose": "download", "status": "obtained"]),
            e(12, "StoreConsentStatusReceived", "p_k2", ["store": "appStore", "purpose": "significantChange", "status": "pending",
                                                         "changeId": "c-x"]),
        ]
    }

    static func counts(_ list: JSONValue?) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (list?.arrayValue ?? []).compactMap { item in
            item["key"]?.stringValue.flatMap { key in item["count"]?.intValue.map { (key, $0) } }
        })
    }

    @Test("each fact is counted where a regulator asks for it, and kept in the subject's state")
    func figuresAndState() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: Self.log, events: try Self.lines.map { try EventInput(json: $0) })
        }
        let report = try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(.init(log: Self.log, jurisdiction: "US-UT", from: AsOf.date("2026-10-01T00:00:00Z")!,
                                                    to: AsOf.date("2026-10-15T00:00:00Z")!), pool: client).report
        }
        #expect(Self.counts(report["ageSignals"]?["eligibilityChecks"]) == ["eligible": 1, "notEligible": 0, "notAvailable": 1])
        let exceptions = try #require(report["exceptions"])
        #expect(Self.counts(exceptions["installsByOutcome"])
                == ["installed": 1, "ratingRestricted": 1, "ageRatingExceptionNotNeeded": 0, "cancelled": 0])
        #expect(Self.counts(exceptions["deviceRatingLimits"]) == ["4+": 0, "9+": 0, "13+": 1, "16+": 0, "18+": 0, "noLimit": 1])
        #expect(exceptions["approveInPerson"] == ["presented": 1, "failed": 1])
        #expect(Self.counts(report["consent"]?["storeConsentStatus"])
                == ["obtained": 1, "notObtained": 0, "pending": 1, "revoked": 0, "notRequired": 0])
        let change = try #require(report["significantChanges"]?.arrayValue?.first)
        #expect(change["notifiedToStoreAt"] == "2026-10-02T10:08:00Z")
        #expect(change["evidencePositions"] == [1, 2])

        let states = try await db.as(.auditor) { client async throws -> [String: JSONValue] in
            let (_, texts) = try await TimeTravel(pool: client).snapshots(log: Self.log, asOf: .head)
            var states: [String: JSONValue] = [:]
            for text in texts {
                let state = try JSONParser.parse(text)
                if let subject = state["subject"]?.stringValue { states[subject] = state }
            }
            return states
        }
        func facts(_ subject: String) -> [String: String] {
            Dictionary(uniqueKeysWithValues: (states[subject]?["appFacts"]?.arrayValue ?? []).compactMap { fact in
                fact["fact"]?.stringValue.flatMap { name in fact["value"]?.stringValue.map { (name, $0) } }
            })
        }
        #expect(facts("p_k1") == ["eligibility": "eligible", "deviceRatingLimit": "13+", "install:6471000001": "installed",
                                  "approveInPerson:6471000003": "presented", "storeConsent:download": "obtained"])
        #expect(facts("p_k2") == ["eligibility": "notAvailable", "deviceRatingLimit": "noLimit", "install:6471000002": "ratingRestricted",
                                  "approveInPerson:6471000003": "failed:missingAgeRatingExceptionRequest",
                                  "storeConsent:significantChange": "pending"])
    }
}
