import LedgerCore
import Testing

/// Birth dates, birth years and exact ages never get in (EVENTS.md); age ranges and look-alike
/// names do.
@Suite("ForbiddenPersonalData")
struct ForbiddenPersonalDataTests {
    static let forbiddenKeys = [
        "birthDate", "date_of_birth", "DOB", "birthYear", "Birthday", "age", "exactAge", "child_age",
        "dateOfBirth", "date-of-birth", "BIRTH_DATE", "yearOfBirth", "birthMonth", "born", "bornOn",
        "birth", "Age", "currentAge", "ageInYears", "age_years", "userAge", "childAge", "subjectAge",
        "personAge", "declaredAge", "realAge", "d_o_b", "-age-",
    ]

    static let allowedKeys = [
        "lowerBound", "upperBound", "ageLower", "ageUpper", "ageGates", "ageRangeDeclaration", "message",
        "usage", "language", "page", "stage", "ageRating", "maximumAllowedAgeRating", "ageRangeSource",
        "isEligibleForAgeFeatures", "requestAgeException", "agent", "image", "birthplace", "storage",
        "mostRecentApprovalDate",
    ]

    /// An event whose payload nests `key` at `payload.children[1].<key>`, `payload.a.b.c.<key>`, ….
    static func placements(of key: String) -> [(payload: JSONValue, path: String)] {
        let value: JSONValue = 7
        let placements: [(payload: JSONValue, path: String)] = [
            ([key: value], "payload.\(key)"),
            (["children": [["name": "p_1"], [key: value]]], "payload.children[1].\(key)"),
            (["a": ["b": ["c": [key: value]]]], "payload.a.b.c.\(key)"),
            (["matrix": [[1, 2], [3, ["deep": [[key: value]]]]]], "payload.matrix[1][1].deep[0].\(key)"),
            (["list": [[:], [:], [:], ["x": [key: value]]]], "payload.list[3].x.\(key)"),
        ]
        return placements
    }

    @Test("forbidden keys are refused wherever they are nested, with the full path",
          arguments: forbiddenKeys)
    func forbiddenAnywhere(key: String) {
        for (payload, path) in Self.placements(of: key) {
            let error = TestEvents.refusal(TestEvents.full(payload: payload))
            expectRefused(error, .forbiddenPersonalData, field: path)
            #expect(error?.message.contains("never accepted") == true)
            #expect(error?.hint?.contains(path) == true)
        }
    }

    @Test("the key is refused whatever its value (null, string, object, array)")
    func anyValue() {
        for value: JSONValue in [.null, "2014-05-01", 2014, ["year": 2014], [2014], false] {
            expectRefused(TestEvents.refusal(TestEvents.full(payload: ["dob": value])),
                          .forbiddenPersonalData, field: "payload.dob")
        }
    }

    @Test("allowed look-alikes pass, at the top of payload and nested", arguments: allowedKeys)
    func allowedLookAlikes(key: String) throws {
        for (payload, _) in Self.placements(of: key) {
            #expect(TestEvents.refusal(TestEvents.full(payload: payload)) == nil, "\(key) in \(payload)")
            #expect(ForbiddenPersonalData.firstViolation(in: payload) == nil)
        }
    }

    @Test("a realistic AgeRangeShared payload passes")
    func realisticPayload() throws {
        let payload: JSONValue = [
            "lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "guardianDeclared",
            "activeParentalControls": ["communicationLimits"], "ageGates": [13, 16, 18],
            "message": "Your age range was shared", "language": "en", "ageRating": 313,
            "maximumAllowedAgeRating": 416,
        ]
        let input = try EventInput(json: .object(TestEvents.full(payload: payload)))
        #expect(input.canonicalText.contains(#""ageGates":[13,16,18]"#))
    }

    @Test("forbidden words in values, not keys, are allowed")
    func valuesAreNotKeys() throws {
        let payload: JSONValue = ["field": "birthDate", "note": "age", "list": ["dob", "exactAge"]]
        #expect(TestEvents.refusal(TestEvents.full(payload: payload)) == nil)
    }

    @Test("a key written with JSON escapes is refused after decoding")
    func escapedKey() {
        var text = String(decoding: TestEvents.line(TestEvents.minimal), as: UTF8.self)
        text = text.replacing(#""payload":{}"#, with: #""payload":{"\u0061ge":9}"#)
        expectRefused(TestEvents.refusal(text: text), .forbiddenPersonalData, field: "payload.age")
    }

    @Test("of two violations the first in sorted key order is named")
    func firstInSortedOrder() {
        let payload: JSONValue = ["zz": ["age": 9], "aa": ["birthDate": "x"], "mm": [["dob": 1]]]
        expectRefused(TestEvents.refusal(TestEvents.full(payload: payload)), .forbiddenPersonalData,
                      field: "payload.aa.birthDate")
        let found = ForbiddenPersonalData.firstViolation(in: payload, path: "payload")
        #expect(found?.path == "payload.aa.birthDate")
        #expect(found?.kind == "a birth date or birth year")
    }

    @Test("firstViolation names the kind and builds paths from the given root")
    func firstViolationDirect() {
        #expect(ForbiddenPersonalData.firstViolation(in: ["Age": 12])?.path == "Age")
        #expect(ForbiddenPersonalData.firstViolation(in: ["Age": 12])?.kind == "an exact age")
        #expect(ForbiddenPersonalData.firstViolation(in: [["x": ["dob": 1]]])?.path == "[0].x.dob")
        #expect(ForbiddenPersonalData.firstViolation(in: ["x": [1, ["y": ["age": 1]]]], path: "root")?.path == "root.x[1].y.age")
        #expect(ForbiddenPersonalData.firstViolation(in: "age") == nil)
        #expect(ForbiddenPersonalData.firstViolation(in: 42) == nil)
        #expect(ForbiddenPersonalData.firstViolation(in: .null) == nil)
    }

    @Test("check throws forbidden-personal-data with the path; passes clean values")
    func check() throws {
        #expect(throws: LedgerError.self) { try ForbiddenPersonalData.check(["a": ["birth_year": 2014]]) }
        do {
            try ForbiddenPersonalData.check(["a": ["birth_year": 2014]])
            Issue.record("accepted a birth year")
        } catch {
            #expect(error.code == .forbiddenPersonalData)
            #expect(error.field == "a.birth_year")
        }
        try ForbiddenPersonalData.check(["lowerBound": 13, "upperBound": 15])
    }

    @Test("the folded key lists hold only folded names")
    func foldedLists() {
        for key in ForbiddenPersonalData.birthDateKeys.union(ForbiddenPersonalData.exactAgeKeys) {
            #expect(key == key.lowercased() && !key.contains("_") && !key.contains("-"), "\(key) is not folded")
        }
        #expect(ForbiddenPersonalData.birthDateKeys.isDisjoint(with: ForbiddenPersonalData.exactAgeKeys))
    }

    /// Keys a person would write for a birth date, with separators the folding does not remove
    /// (space, dot). EVENTS.md: "The ledger rejects any payload that carries one".
    @Test("birth-date keys separated by spaces or dots are refused", arguments: [
        "date of birth", "Date Of Birth", "birth date", "birth.date", "exact age",
    ])
    func otherSeparators(key: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(payload: [key: "2014-05-01"])),
                      .forbiddenPersonalData, field: "payload.\(key)")
    }
}
