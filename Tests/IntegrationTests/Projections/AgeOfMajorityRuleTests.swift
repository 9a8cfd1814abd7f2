import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing

/// The region's age of majority (AgeOfMajority): the same history of a 19-year-old is an adult's in
/// Texas and a minor's in Mississippi (majority at 21), through the projection, the regulator
/// report and `explain`.
@Suite("The rules follow the age of majority of the event's jurisdiction")
struct AgeOfMajorityRuleTests {
    /// A change (1); DeclaredAgeRange requiring both parental consent and adult notification (2); a
    /// range of 18 to 20 whose government ID was checked (3); the feature opened, with no question,
    /// answer or acknowledgment on record (4).
    static func nineteen(log: String, jurisdiction: String) -> RuleHistory {
        var h = RuleHistory(log: log, jurisdiction: jurisdiction)
        h.declareChange(at: "2026-10-01T08:00:00Z")                                                     // 1
        h.eligibility(["significantAppChangeRequiresParentalConsent", "significantAppChangeRequiresAdultNotification"],
                      at: "2026-10-02T09:00:00Z")                                                       // 2
        h.ageRange(18, 20, at: "2026-10-02T09:00:05Z", controls: [], declaration: "governmentIDChecked") // 3
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3)])                                             // 4
        return h
    }

    @Test("18 to 20 is an adult in Texas (the missing acknowledgment is found) and a minor in Mississippi (the missing approval is)")
    func adultInTexasMinorInMississippi() async throws {
        let (db, found) = try await RuleTests.run(Self.nineteen(log: "texas", jurisdiction: "US-TX"),
                                                  Self.nineteen(log: "mississippi", jurisdiction: "US-MS"))
        #expect(found["texas"] == ["4 adult-access-without-acknowledgment [1, 2, 3, 4]"])
        #expect(found["mississippi"] == ["4 access-without-approval [1, 2, 3, 4]"])

        try await db.as(.administrator) { client async throws in
            for (log, category, verified) in [("texas", "adult", true), ("mississippi", "18toMajority", false)] {
                let rows = try await client.query("""
                    SELECT age_category, verified_adult FROM subject_state.subjects WHERE log_id = \(log) AND subject = 'p_k'
                    """).decode((String, Bool).self)
                var seen = 0
                for try await (stored, verifiedAdult) in rows {
                    #expect(stored == category && verifiedAdult == verified, "\(log)")
                    seen += 1
                }
                #expect(seen == 1, "\(log)")
            }
        }
        try await db.as(.auditor) { client async throws in
            let report = try await RegulatorReport.compute(
                .init(log: "mississippi", jurisdiction: "US-MS", from: AsOf.date("2026-10-01T00:00:00Z")!,
                      to: AsOf.date("2026-11-01T00:00:00Z")!), pool: client).report
            #expect(report["violations"]?.arrayValue?.map { $0["rule"]?.stringValue } == ["access-without-approval"])
            let categories = report["ageSignals"]?["responsesByCategory"]?.arrayValue ?? []
            #expect(categories.first { $0["key"] == "18toMajority" }?["declaredAgeRange"] == 1)
            #expect(categories.first { $0["key"] == "adult" }?["declaredAgeRange"] == 0)
            let explained = try await FeatureExplanation.explain(log: "mississippi", subject: "p_k", feature: "rooms",
                                                                 asOf: .head, pool: client)
            #expect(explained.decisions.first?.rules.filter(\.failed).map(\.rule) == ["access-without-approval"])
        }
    }

    @Test("an 18+ range where the age of majority is 19 is neither a minor's nor an adult's: no rule of either fires")
    func eighteenPlusInAlabamaIsUnknown() async throws {
        var h = RuleHistory(log: "alabama", jurisdiction: "US-AL")
        h.declareChange(at: "2026-10-01T08:00:00Z")
        h.eligibility(["significantAppChangeRequiresAdultNotification"], at: "2026-10-02T09:00:00Z")
        h.ageRange(18, nil, at: "2026-10-02T09:00:05Z", controls: [], declaration: "selfDeclared")
        h.open(at: "2026-10-02T11:00:00Z", basis: [h.id(3)])
        // The same in Texas is the unverified adult of RuleTests.
        let (_, found) = try await RuleTests.run(h, RuleTests.adultHistory(log: "texas", declaration: "selfDeclared", acknowledged: false))
        #expect(found["alabama"] == [])
        #expect(found["texas"] == ["4 unverified-adult-access [1, 2, 3, 4]"])
    }

    @Test("the regulator report counts events by build (app.environment), and the apps' own age checks by method and outcome from production builds only")
    func environmentsAndAgeChecks() async throws {
        var h = RuleHistory(log: "builds", jurisdiction: "US-TX")
        h.ageRange(13, 15, at: "2026-10-02T09:00:05Z")                                         // not said
        h.environment = "production"
        h.ageCheck("appAgeGate", 13, 15, at: "2026-10-02T09:10:00Z")                            // production
        h.ageCheck("thirdPartyDocument", nil, nil, outcome: "failed", at: "2026-10-02T09:20:00Z")
        h.environment = "sandbox"
        h.ageCheck("appAgeGate", nil, nil, outcome: "inconclusive", at: "2026-10-02T09:30:00Z")
        let db = try await TestDatabase.create()
        try await h.append(db)
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        try await db.as(.auditor) { client async throws in
            let report = try await RegulatorReport.compute(
                .init(log: "builds", jurisdiction: "US-TX", from: AsOf.date("2026-10-01T00:00:00Z")!,
                      to: AsOf.date("2026-11-01T00:00:00Z")!), pool: client).report
            let environments = (report["scope"]?["eventsByEnvironment"]?.arrayValue ?? []).map {
                "\($0["key"]?.stringValue ?? "?") \($0["count"]?.intValue ?? -1)"
            }
            #expect(environments == ["production 2", "sandbox 1", "development 0", "not stated 1"])
            let checks = (report["ageSignals"]?["ageChecksByMethod"]?.arrayValue ?? []).map { row in
                ["key", "passed", "failed", "inconclusive", "count"].map { row[$0].map { $0.stringValue ?? "\($0.intValue ?? -1)" } ?? "-" }
                    .joined(separator: " ")
            }
            // The sandbox build's inconclusive check is in the scope's count by environment, in no figure (decision 0068).
            #expect(checks == ["appAgeGate 1 0 0 1", "thirdPartyEstimation 0 0 0 0", "thirdPartyDocument 0 1 0 1",
                               "thirdPartyPayment 0 0 0 0"])
        }
    }
}
