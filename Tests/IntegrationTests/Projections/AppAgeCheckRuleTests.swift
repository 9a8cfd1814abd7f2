import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

/// AgeVerificationCompleted as an age signal (decision 0028): an app's own gate or a third-party
/// verifier counts for the rules like AgeRangeShared and Play's signal, but only a third party's
/// check makes a verified adult, and a check that found no range hides no earlier signal.
@Suite("The rules read an app's own age gate and third-party verifiers")
struct AppAgeCheckRuleTests {
    /// The unverified-adult history of RuleTests, with the age from an AgeVerificationCompleted:
    /// a change (1), DeclaredAgeRange requiring adult notification (2), the check (3), the opening (4).
    static func adultChecked(log: String, method: String) -> RuleHistory {
        var h = RuleHistory(log: log)
        h.declareChange(at: "2026-10-01T08:00:00Z")                                                     // 1
        h.eligibility(["significantAppChangeRequiresAdultNotification"], at: "2026-10-02T09:00:00Z")   // 2
        h.ageCheck(method, 18, nil, at: "2026-10-02T09:00:05Z")                                          // 3
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3)])                                             // 4
        return h
    }

    @Test("an adult whose ID a third party checked is verified (only the missing acknowledgment is found); one who passed only the app's own gate is not")
    func verifiedByDocumentNotByOwnGate() async throws {
        let (db, found) = try await RuleTests.run(Self.adultChecked(log: "document", method: "thirdPartyDocument"),
                                                  Self.adultChecked(log: "estimation", method: "thirdPartyEstimation"),
                                                  Self.adultChecked(log: "own-gate", method: "appAgeGate"))
        #expect(found["document"] == ["4 adult-access-without-acknowledgment [1, 2, 3, 4]"])
        #expect(found["estimation"] == ["4 adult-access-without-acknowledgment [1, 2, 3, 4]"])
        #expect(found["own-gate"] == ["4 unverified-adult-access [1, 2, 3, 4]"])

        // subject_state holds the check as the subject's age, its method as the declaration.
        try await db.as(.administrator) { client async throws in
            for (log, method, verified) in [("document", "thirdPartyDocument", true), ("own-gate", "appAgeGate", false)] {
                let rows = try await client.query("""
                    SELECT age_category, age_lower, age_declaration, verified_adult, age_event_type, age_position
                      FROM subject_state.subjects WHERE log_id = \(log) AND subject = 'p_k'
                    """).decode((String, Int, String, Bool, String, Int64).self)
                var seen = 0
                for try await (category, lower, declaration, verifiedAdult, type, position) in rows {
                    #expect(category == "adult" && lower == 18 && declaration == method, "\(log)")
                    #expect(verifiedAdult == verified, "\(log)")
                    #expect(type == "AgeVerificationCompleted" && position == 3, "\(log)")
                    seen += 1
                }
                #expect(seen == 1, "\(log)")
            }
        }
    }

    @Test("a failed or inconclusive check is no age signal: the 13-15 range shared before it still makes the opening a minor's")
    func failedCheckHidesNothing() async throws {
        func history(_ log: String, outcome: String) -> RuleHistory {
            var h = RuleHistory(log: log)
            h.declareChange(at: "2026-10-01T08:00:00Z")                                                  // 1
            h.eligibility(["significantAppChangeRequiresParentalConsent"], at: "2026-10-02T09:00:00Z")  // 2
            h.ageRange(13, 15, at: "2026-10-02T09:00:05Z")                                                // 3
            h.ageCheck("thirdPartyEstimation", nil, nil, outcome: outcome, at: "2026-10-02T09:10:00Z")     // 4
            h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3), h.id(4)])                                 // 5
            return h
        }
        let (_, found) = try await RuleTests.run(history("failed", outcome: "failed"), history("inconclusive", outcome: "inconclusive"))
        #expect(found["failed"] == ["5 access-without-approval [1, 2, 3, 5]"])
        #expect(found["inconclusive"] == ["5 access-without-approval [1, 2, 3, 5]"])
    }

    @Test("a minor's range from the app's own gate is a minor's age signal: the opening without approval is found")
    func ownGateMinor() async throws {
        var h = RuleHistory(log: "gate-minor")
        h.declareChange(at: "2026-10-01T08:00:00Z")                                                      // 1
        h.eligibility(["significantAppChangeRequiresParentalConsent"], at: "2026-10-02T09:00:00Z")      // 2
        h.ageCheck("appAgeGate", 13, 15, at: "2026-10-02T09:00:05Z")                                      // 3
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3)])                                              // 4
        let (_, found) = try await RuleTests.run(h)
        #expect(found["gate-minor"] == ["4 access-without-approval [1, 2, 3, 4]"])
    }
}
