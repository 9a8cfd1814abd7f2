import LedgerCore
import Testing

/// Birth dates, birth years and exact ages never get in (docs/design/events.md); age ranges and look-alike
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

    /// The placements are free-form payloads that the catalogue would refuse (unknown fields), so
    /// the door is checked directly, on the payload and on the whole event around it.
    @Test("allowed look-alikes pass, at the top of payload and nested", arguments: allowedKeys)
    func allowedLookAlikes(key: String) throws {
        for (payload, _) in Self.placements(of: key) {
            #expect(ForbiddenPersonalData.firstViolation(in: payload) == nil, "\(key) in \(payload)")
            let event = JSONValue.object(TestEvents.full(payload: payload))
            #expect(ForbiddenPersonalData.firstViolation(in: event) == nil, "\(key) in \(payload)")
            try ForbiddenPersonalData.check(event)
        }
    }

    /// Catalogue-valid events whose fields have age-like names (every allowed key the catalogue
    /// uses) pass EventInput end to end.
    @Test("realistic events with age-range fields pass", arguments: [
        ("AgeRangeShared", 2, #"{"lowerBound":13,"upperBound":15,"ageRangeDeclaration":"guardianDeclared","activeParentalControls":["communicationLimits"]}"#),
        ("AgeRangeRequested", 1, #"{"ageGates":[13,16,18],"trigger":"launch"}"#),
        ("EligibilityChecked", 1, #"{"isEligibleForAgeFeatures":true}"#),
        ("PlayAgeSignalReceived", 1, #"{"userStatus":"SUPERVISED","ageLower":13,"ageUpper":15,"mostRecentApprovalDate":"2026-10-01","ageRangeSource":"TIER_B"}"#),
        ("AgeVerificationCompleted", 1, #"{"method":"thirdPartyEstimation","provider":"example-face-age","outcome":"passed","lowerBound":18}"#),
        ("DeviceRatingLimitObserved", 1, #"{"maximumAllowedAgeRating":416}"#),
        ("InstallAttempted", 1, #"{"appleItemID":6471234567,"ageRating":313,"requestAgeException":false,"outcome":"installed"}"#),
    ])
    func realisticPayload(type: String, version: Int, payload: String) throws {
        var object = TestEvents.full(payload: try JSONParser.parse(payload))
        object["type"] = .string(type)
        object["schemaVersion"] = .number(Double(version))
        let input = try EventInput(json: .object(object))
        // The payload is stored as sent, in canonical form.
        #expect(input.canonicalText.contains(#""payload":"# + CanonicalJSON.encodeString(try JSONParser.parse(payload))),
                "\(input.canonicalText)")
    }

    @Test("forbidden words in values, not keys, are allowed")
    func valuesAreNotKeys() throws {
        let payload: JSONValue = ["field": "birthDate", "note": "age", "list": ["dob", "exactAge"]]
        #expect(ForbiddenPersonalData.firstViolation(in: payload) == nil)
        try ForbiddenPersonalData.check(.object(TestEvents.full(payload: payload)))
        // End to end, in a free-text field of a catalogue-valid event.
        var object = TestEvents.full(payload: [
            "operatorId": "op_3", "decision": "annotation", "affectedSubjectId": "p_4f1c",
            "reason": "parent asked us to delete the birthDate, dob and exact age the child typed in",
        ])
        object["type"] = "OperatorDecision"
        let input = try EventInput(json: .object(object))
        #expect(input.canonicalText.contains("birthDate, dob and exact age"))
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

    /// The ASCII fast path of the folding must agree with the Unicode one it stands for.
    @Test("folding a key: the ASCII path and the Unicode path agree", arguments: [
        "Date_Of-Birth", "BIRTH.year", "age2", "  user age ", "a$b@c#9", "", "Ümlaut Age", "Ａｇｅ", "年齢", "birth\u{0301}day",
    ])
    func foldAgrees(key: String) {
        #expect(ForbiddenPersonalData.fold(key) == String(key.lowercased().filter { $0.isLetter || $0.isNumber }))
    }

    /// Keys a person would write for a birth date, with separators the folding does not remove
    /// (space, dot). docs/design/events.md: "The ledger rejects any payload that carries one".
    @Test("birth-date keys separated by spaces or dots are refused", arguments: [
        "date of birth", "Date Of Birth", "birth date", "birth.date", "exact age",
    ])
    func otherSeparators(key: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(payload: [key: "2014-05-01"])),
                      .forbiddenPersonalData, field: "payload.\(key)")
    }
}
