import LedgerCore
import Testing

/// The facts the ledger derives: legal category at every band boundary, verified adult, rating labels.
@Suite("Event catalogue: derived facts")
struct DerivedFactsTests {
    typealias F = CatalogueFixtures

    /// (lowerBound, upperBound, category), around every band boundary.
    static let categories: [(Int?, Int?, String)] = [
        (nil, 12, "under13"), (nil, 9, "under13"), (9, 12, "under13"), (nil, 1, "under13"),
        (nil, 13, "unknown"), (nil, 15, "unknown"), (12, 13, "unknown"),
        (13, 15, "13to15"), (13, 14, "13to15"), (14, 15, "13to15"),
        (13, 17, "unknown"), (15, 16, "unknown"), (13, nil, "unknown"),
        (16, 17, "16to17"), (16, 18, "unknown"), (17, 18, "unknown"), (16, nil, "unknown"), (17, nil, "unknown"),
        (18, nil, "adult"), (18, 20, "adult"), (21, nil, "adult"), (19, 20, "adult"),
        (nil, nil, "unknown"),
    ]

    @Test("LegalCategory.of at every band boundary", arguments: 0..<categories.count)
    func legalCategory(index: Int) {
        let (lower, upper, expected) = Self.categories[index]
        #expect(LegalCategory.of(lowerBound: lower, upperBound: upper, ageOfMajority: 18).rawValue == expected,
                "\(String(describing: lower))...\(String(describing: upper))")
    }

    /// (lowerBound, upperBound, category) where the age of majority is 21 (Mississippi) and 19 (Alabama).
    static let majority21: [(Int?, Int?, String)] = [
        (16, 17, "16to17"), (18, 20, "18toMajority"), (18, 19, "18toMajority"), (19, 20, "18toMajority"),
        (18, nil, "unknown"), (20, 21, "unknown"), (21, nil, "adult"), (17, 18, "unknown"), (nil, 12, "under13"),
    ]
    static let majority19: [(Int?, Int?, String)] = [
        (16, 17, "16to17"), (18, 19, "unknown"), (18, nil, "unknown"), (19, nil, "adult"), (19, 20, "adult"), (17, 18, "unknown"),
    ]

    @Test("LegalCategory.of where the age of majority is above 18")
    func legalCategoryAboveEighteen() {
        for (lower, upper, expected) in Self.majority21 {
            #expect(LegalCategory.of(lowerBound: lower, upperBound: upper, ageOfMajority: 21).rawValue == expected,
                    "21: \(String(describing: lower))...\(String(describing: upper))")
        }
        for (lower, upper, expected) in Self.majority19 {
            #expect(LegalCategory.of(lowerBound: lower, upperBound: upper, ageOfMajority: 19).rawValue == expected,
                    "19: \(String(describing: lower))...\(String(describing: upper))")
        }
    }

    @Test("the age of majority comes from the event's jurisdiction: its own, its country's, else 18")
    func ageOfMajorityByJurisdiction() {
        #expect(AgeOfMajority.of(jurisdiction: "US-AL") == 19)
        #expect(AgeOfMajority.of(jurisdiction: "US-NE") == 19)
        #expect(AgeOfMajority.of(jurisdiction: "US-MS") == 21)
        #expect(AgeOfMajority.of(jurisdiction: "PR") == 21)
        #expect(AgeOfMajority.of(jurisdiction: "PR-SJ") == 21)
        #expect(AgeOfMajority.of(jurisdiction: "US-TX") == 18)
        #expect(AgeOfMajority.of(jurisdiction: "US") == 18)
        #expect(AgeOfMajority.of(jurisdiction: "GB") == 18)
        #expect(AgeOfMajority.of(jurisdiction: nil) == 18)
    }

    @Test("an event's derived category is judged at its envelope's jurisdiction")
    func eventInputUsesTheJurisdiction() throws {
        func category(_ code: String, _ lower: Int, _ upper: Int?, declaration: String = "governmentIDChecked") throws -> (String?, Bool?) {
            let upperText = upper.map { ",\"upperBound\":\($0)" } ?? ""
            let line = "{\"eventId\":\"3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b\",\"stream\":\"subject-p_7f3a9c\",\"type\":\"AgeRangeShared\","
                + "\"schemaVersion\":2,\"occurredAt\":\"2026-11-20T16:02:19Z\",\"subject\":\"p_7f3a9c\",\"actor\":{\"kind\":\"subject\"},"
                + "\"jurisdiction\":{\"code\":\"\(code)\",\"basis\":\"asserted\"},"
                + "\"payload\":{\"lowerBound\":\(lower)\(upperText),\"ageRangeDeclaration\":\"\(declaration)\"}}"
            let input = try EventInput(line: Array(line.utf8))
            return (input.catalogued.derived["legalCategory"]?.stringValue, input.catalogued.derived["verifiedAdult"]?.boolValue)
        }
        #expect(try category("US-TX", 18, nil) == ("adult", true))
        #expect(try category("US-AL", 18, nil) == ("unknown", false))
        #expect(try category("US-MS", 18, 20) == ("18toMajority", false))
        #expect(try category("US-MS", 21, nil) == ("adult", true))
    }

    @Test("AgeRangeShared stores the legal category of its bounds", arguments: 0..<categories.count)
    func sharedCategory(index: Int) throws {
        let (lower, upper, expected) = Self.categories[index]
        var payload: [String: JSONValue] = [:]
        if let lower { payload["lowerBound"] = .number(Double(lower)) }
        if let upper { payload["upperBound"] = .number(Double(upper)) }
        let checked = try #require(F.accepted("AgeRangeShared", .object(payload)))
        #expect(checked.derived["legalCategory"] == .string(expected))
    }

    @Test("PlayAgeSignalReceived stores the legal category of ageLower/ageUpper (Play's default bands)")
    func playCategory() throws {
        let bands: [(Int?, Int?, String)] = [(0, 12, "under13"), (13, 15, "13to15"), (16, 17, "16to17"), (18, nil, "adult"),
                                             (0, 14, "unknown"), (15, nil, "unknown"), (nil, nil, "unknown"), (11, 12, "under13")]
        for (lower, upper, expected) in bands {
            var payload: [String: JSONValue] = ["userStatus": "SUPERVISED"]
            if let lower { payload["ageLower"] = .number(Double(lower)) }
            if let upper { payload["ageUpper"] = .number(Double(upper)) }
            let checked = try #require(F.accepted("PlayAgeSignalReceived", .object(payload)))
            #expect(checked.derived["legalCategory"] == .string(expected), "\(payload)")
            #expect(checked.derived["verifiedAdult"] == false)
        }
    }

    @Test("verified adult: adult and a declaration that checked the person's own age")
    func verifiedAdult() throws {
        let verified: Set<String> = ["confirmed", "governmentIDChecked", "paymentChecked", "checkedByOtherMethod"]
        for declaration in AgeRangeShared.AgeRangeDeclaration.allCases.map(\.rawValue) {
            let adult = try #require(F.accepted("AgeRangeShared", ["lowerBound": 18, "ageRangeDeclaration": .string(declaration)]))
            #expect(adult.derived["verifiedAdult"] == .bool(verified.contains(declaration)), "\(declaration)")
            let teen = try #require(F.accepted("AgeRangeShared", ["lowerBound": 16, "upperBound": 17,
                                                                  "ageRangeDeclaration": .string(declaration)]))
            #expect(teen.derived["verifiedAdult"] == false, "\(declaration)")
        }
        let undeclared = try #require(F.accepted("AgeRangeShared", ["lowerBound": 18]))
        #expect(undeclared.derived["verifiedAdult"] == false)
        let straddling = try #require(F.accepted("AgeRangeShared", ["lowerBound": 16, "ageRangeDeclaration": "confirmed"]))
        #expect(straddling.derived == ["legalCategory": "unknown", "verifiedAdult": false])
    }

    @Test("Play: verified adult is an adult range with userStatus VERIFIED")
    func playVerifiedAdult() throws {
        for status in PlayAgeSignalReceived.UserStatus.allCases {
            let checked = try #require(F.accepted("PlayAgeSignalReceived", ["userStatus": .string(status.rawValue), "ageLower": 18]))
            #expect(checked.derived["verifiedAdult"] == .bool(status == .VERIFIED), "\(status)")
        }
        let minor = try #require(F.accepted("PlayAgeSignalReceived", ["userStatus": "VERIFIED", "ageLower": 16, "ageUpper": 17]))
        #expect(minor.derived["verifiedAdult"] == false)
    }

    @Test("rating labels for every MarketplaceKit code")
    func ratingLabels() throws {
        let labels = [100: "4+", 200: "9+", 313: "13+", 416: "16+", 618: "18+", 2000: "unrated"]
        for (code, label) in labels {
            let limit = try #require(F.accepted("DeviceRatingLimitObserved", ["maximumAllowedAgeRating": .number(Double(code))]))
            #expect(limit.derived == ["ratingLabel": .string(label)])
            let install = try #require(F.accepted("InstallAttempted", F.example("InstallAttempted", setting: "ageRating",
                                                                                 to: .number(Double(code)))))
            #expect(install.derived == ["ratingLabel": .string(label)])
            let exception = try #require(F.accepted("AgeExceptionRequested", F.example("AgeExceptionRequested", setting: "ageRating",
                                                                                       to: .number(Double(code)))))
            #expect(exception.derived == ["ratingLabel": .string(label)])
        }
        let unrated = try #require(F.accepted("AgeExceptionRequested", F.example("AgeExceptionRequested", setting: "ageRating", to: nil)))
        #expect(unrated.derived.isEmpty)
    }

    @Test("types without derived facts derive nothing")
    func nothingDerived() throws {
        for schema in EventCatalogue.schemas where schema.derived.isEmpty {
            let checked = try #require(F.accepted(schema.type, schema.example))
            #expect(checked.derived.isEmpty, "\(schema.type)")
        }
        #expect(EventCatalogue.derivedMember == "derived")
    }
}
