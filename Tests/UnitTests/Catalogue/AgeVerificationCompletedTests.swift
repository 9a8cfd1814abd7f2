import LedgerCore
import Testing

/// `AgeVerificationCompleted`: an app's own age gate or a third-party verifier. Its derived facts
/// follow AgeRangeShared's, except that only a third party's check makes a verified adult.
@Suite("Event catalogue: AgeVerificationCompleted")
struct AgeVerificationCompletedTests {
    typealias F = CatalogueFixtures

    /// (method, outcome, lowerBound, upperBound, legalCategory, verifiedAdult).
    static let derivations: [(String, String, Int?, Int?, String, Bool)] = [
        ("thirdPartyDocument", "passed", 18, nil, "adult", true),
        ("thirdPartyEstimation", "passed", 25, nil, "adult", true),
        ("thirdPartyPayment", "passed", 18, nil, "adult", true),
        ("appAgeGate", "passed", 18, nil, "adult", false),
        ("thirdPartyEstimation", "passed", 13, 15, "13to15", false),
        ("appAgeGate", "passed", nil, 12, "under13", false),
        ("thirdPartyEstimation", "passed", 16, nil, "unknown", false),
        ("thirdPartyDocument", "passed", nil, nil, "unknown", false),
        ("thirdPartyDocument", "failed", nil, nil, "unknown", false),
        ("thirdPartyEstimation", "inconclusive", nil, nil, "unknown", false),
        ("appAgeGate", "failed", nil, nil, "unknown", false),
    ]

    static func payload(_ method: String, _ outcome: String, _ lower: Int?, _ upper: Int?) -> JSONValue {
        var members: [String: JSONValue] = ["method": .string(method), "outcome": .string(outcome)]
        if method != "appAgeGate" { members["provider"] = "example-verifier" }
        if let lower { members["lowerBound"] = .number(Double(lower)) }
        if let upper { members["upperBound"] = .number(Double(upper)) }
        return .object(members)
    }

    @Test("legalCategory as for AgeRangeShared when the check passed (unknown otherwise); verifiedAdult only for a third party's adult",
          arguments: 0..<derivations.count)
    func derived(index: Int) throws {
        let (method, outcome, lower, upper, category, verified) = Self.derivations[index]
        let checked = try #require(F.accepted("AgeVerificationCompleted", Self.payload(method, outcome, lower, upper)))
        #expect(checked.derived == ["legalCategory": .string(category), "verifiedAdult": .bool(verified)],
                "\(method) \(outcome) \(String(describing: lower))...\(String(describing: upper))")
    }

    @Test("a third party's check names its provider; the app's own gate may leave it out")
    func provider() {
        for method in ["thirdPartyEstimation", "thirdPartyDocument", "thirdPartyPayment"] {
            expectRefused(F.refusal("AgeVerificationCompleted", ["method": .string(method), "outcome": "failed"]),
                          .missingField, field: "payload.provider")
        }
        #expect(F.refusal("AgeVerificationCompleted", ["method": "appAgeGate", "outcome": "failed"]) == nil)
        expectRefused(F.refusal("AgeVerificationCompleted", ["method": "appAgeGate", "provider": "Jane Doe", "outcome": "failed"]),
                      .invalidField, field: "payload.provider")
    }

    @Test("a range only with a passed check; ordered bounds; never a one-year range (an exact age)")
    func range() {
        for outcome in ["failed", "inconclusive"] {
            expectRefused(F.refusal("AgeVerificationCompleted", Self.payload("thirdPartyDocument", outcome, 18, nil)),
                          .invalidField, field: "payload.lowerBound")
            expectRefused(F.refusal("AgeVerificationCompleted", Self.payload("thirdPartyDocument", outcome, nil, 12)),
                          .invalidField, field: "payload.upperBound")
        }
        expectRefused(F.refusal("AgeVerificationCompleted", Self.payload("thirdPartyEstimation", "passed", 21, 19)),
                      .invalidField, field: "payload.lowerBound")
        expectRefused(F.refusal("AgeVerificationCompleted", Self.payload("thirdPartyEstimation", "passed", 34, 34)),
                      .invalidField, field: "payload.upperBound")
        expectRefused(F.refusal("AgeVerificationCompleted", Self.payload("thirdPartyEstimation", "passed", 0, 12)),
                      .invalidField, field: "payload.lowerBound")
        expectRefused(F.refusal("AgeVerificationCompleted", ["method": "selfie", "provider": "x", "outcome": "passed"]),
                      .invalidField, field: "payload.method")
        expectRefused(F.refusal("AgeVerificationCompleted", ["method": "appAgeGate", "outcome": "verified"]),
                      .invalidField, field: "payload.outcome")
    }

    @Test("an exact age or a birth date next to the range is refused at the door, before the catalogue")
    func noExactAge() {
        let forbidden: [(String, JSONValue)] = [("age", 34), ("dateOfBirth", "1992-04-01")]
        for (key, value) in forbidden {
            var object = TestEvents.full(payload: ["method": "appAgeGate", "outcome": "passed", "lowerBound": 18, key: value])
            object["type"] = "AgeVerificationCompleted"
            do {
                _ = try EventInput(json: .object(object))
                Issue.record("\(key) accepted")
            } catch {
                #expect(error.code == .forbiddenPersonalData, "\(error)")
                #expect(error.field == "payload.\(key)")
            }
        }
    }

    @Test("the narrative says who checked and what was found")
    func narrative() {
        #expect(EventNarrative.sentence(type: "AgeVerificationCompleted",
                                        payload: ["method": "thirdPartyDocument", "provider": "example-id-check", "outcome": "passed", "lowerBound": 18],
                                        derived: ["legalCategory": "adult", "verifiedAdult": true])
                == "An age check by example-id-check (thirdPartyDocument) passed: 18 or over, category adult, a verified adult.")
        #expect(EventNarrative.sentence(type: "AgeVerificationCompleted", payload: ["method": "appAgeGate", "outcome": "failed"],
                                        derived: ["legalCategory": "unknown", "verifiedAdult": false])
                == "An age check by the app's own age gate failed: no range found.")
    }
}
