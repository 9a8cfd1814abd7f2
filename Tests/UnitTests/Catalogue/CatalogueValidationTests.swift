import LedgerCore
import Testing

/// Every refusal of the catalogue, with its code and the JSON path it names.
@Suite("Event catalogue: validation")
struct CatalogueValidationTests {
    typealias F = CatalogueFixtures

    // MARK: Type and version

    @Test("an unknown event type is refused on field type; the hint lists every known type")
    func unknownType() {
        for type in ["AgeRangeShare", "agerangeshared", "SomethingElse", ""] {
            let error = F.refusal(type, version: 1, [:])
            expectRefused(error, .unknownEventType, field: "type")
            for known in EventCatalogue.eventTypes {
                #expect(error?.hint?.contains(known) == true, "\(known) missing from the hint")
            }
        }
        #expect(LedgerError.Code.unknownEventType.rawValue == "unknown-event-type")
    }

    @Test("an unknown schema version is refused on field schemaVersion; the hint lists the versions")
    func unknownVersion() {
        let error = F.refusal("AgeRangeShared", version: 3, .object(F.example("AgeRangeShared")))
        expectRefused(error, .unsupportedSchemaVersion, field: "schemaVersion")
        #expect(error?.hint?.contains("1, 2") == true)
        expectRefused(F.refusal("AgeRangeRequested", version: 2, .object(F.example("AgeRangeRequested"))),
                      .unsupportedSchemaVersion, field: "schemaVersion")
        expectRefused(F.refusal("QuestionExpired", version: 0, .object(F.example("QuestionExpired"))),
                      .unsupportedSchemaVersion, field: "schemaVersion")
        #expect(LedgerError.Code.unsupportedSchemaVersion.rawValue == "unsupported-schema-version")
    }

    // MARK: Missing, unknown, wrong kind

    @Test("a missing required field is refused with its path, at any depth")
    func missingRequired() {
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "trigger", to: nil)),
                      .missingField, field: "payload.trigger")
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "trigger", to: .null)),
                      .missingField, field: "payload.trigger")
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "choices", to: [
            ["id": "a", "title": "A", "answer": "approval"], ["id": "b", "answer": "denial"],
        ])), .missingField, field: "payload.choices[1].title")
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "topic", to: ["custom": [:]])),
                      .missingField, field: "payload.topic.custom.name")
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "topic", to: [
            "communication": ["personInformation": [["handle": ["value": "sam"]]]],
        ])), .missingField, field: "payload.topic.communication.personInformation[0].handle.kind")
    }

    @Test("an unknown field is refused with its path, at any depth; sorted order decides which")
    func unknownFields() {
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGate", to: 13)),
                      .unknownField, field: "payload.ageGate")
        expectRefused(F.refusal("AgeRangeShared", F.example("AgeRangeShared", setting: "legalCategory", to: "adult")),
                      .unknownField, field: "payload.legalCategory")
        expectRefused(F.refusal("AgeRangeShared", F.example("AgeRangeShared", setting: "derived", to: [:])),
                      .unknownField, field: "payload.derived")
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "topic", to: [
            "significantAppUpdate": ["description": "New rooms.", "title": "v3"],
        ])), .unknownField, field: "payload.topic.significantAppUpdate.title")
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "topic", to: ["video": [:]])),
                      .unknownField, field: "payload.topic.video")
        expectRefused(F.refusal("QuestionExpired", ["zz": 1, "aa": 2, "questionId": "x"]), .unknownField, field: "payload.aa")
        let empty = F.refusal("AgeRangeDeclined", ["reason": "no"])
        expectRefused(empty, .unknownField, field: "payload.reason")
        #expect(empty?.hint?.contains("no payload fields") == true)
    }

    @Test("a field of the wrong JSON kind is refused with its path")
    func wrongKind() {
        let cases: [(String, String, JSONValue, String)] = [
            ("AgeRangeShared", "lowerBound", "13", "payload.lowerBound"),
            ("AgeRangeShared", "lowerBound", 13.5, "payload.lowerBound"),
            ("AgeRangeShared", "activeParentalControls", "communicationLimits", "payload.activeParentalControls"),
            ("AgeRangeRequested", "ageGates", 13, "payload.ageGates"),
            ("EligibilityChecked", "isEligibleForAgeFeatures", "yes", "payload.isEligibleForAgeFeatures"),
            ("PermissionQuestionSent", "choices", ["id": "ok"], "payload.choices"),
            ("PermissionQuestionSent", "topic", "significantAppUpdate", "payload.topic"),
            ("PermissionQuestionSent", "topic", ["custom": ["name": "a"], "significantAppUpdate": ["description": "b"]], "payload.topic"),
            ("PermissionQuestionSent", "expirationDate", "2026-11-27 16:02", "payload.expirationDate"),
            ("ParentalAnswerReceived", "guardianId", "jane@example.com", "payload.guardianId"),
            ("ParentalAnswerReceived", "questionId", "6C1E8A52-3D9B-4F0E-A7C2-91B5E0D4F318", "payload.questionId"),
            ("ParentalAnswerReceived", "choiceTitle", "", "payload.choiceTitle"),
            ("OperatorDecision", "reason", .string(String(repeating: "x", count: 2001)), "payload.reason"),
            ("PlayAgeSignalReceived", "mostRecentApprovalDate", "2026-02-30", "payload.mostRecentApprovalDate"),
            ("ConsentRescinded", "signedDate", "1795000000000", "payload.signedDate"),
            ("InstallAttempted", "requestAgeException", 1, "payload.requestAgeException"),
        ]
        for (type, key, value, path) in cases {
            expectRefused(F.refusal(type, F.example(type, setting: key, to: value)), .invalidField, field: path)
        }
        expectRefused(F.refusal("AgeRangeDeclined", []), .invalidField, field: "payload")
        expectRefused(F.refusal("AgeRangeDeclined", .null), .invalidField, field: "payload")
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates", to: [13, .null])),
                      .invalidField, field: "payload.ageGates[1]")
    }

    @Test("an unknown enum value is refused; the hint lists the allowed values")
    func unknownEnumValue() {
        let error = F.refusal("AgeRangeShared", F.example("AgeRangeShared", setting: "ageRangeDeclaration", to: "verified"))
        expectRefused(error, .invalidField, field: "payload.ageRangeDeclaration")
        for value in AgeRangeShared.AgeRangeDeclaration.allCases {
            #expect(error?.hint?.contains(value.rawValue) == true)
        }
        #expect(error?.hint?.contains("deprecated") == true)
        #expect(error?.message.contains("\"verified\"") == true)

        expectRefused(F.refusal("AgeRangeShared", F.example("AgeRangeShared", setting: "activeParentalControls",
                                                             to: ["communicationLimits", "screenTime"])),
                      .invalidField, field: "payload.activeParentalControls[1]")
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "trigger", to: "Launch")),
                      .invalidField, field: "payload.trigger")
        expectRefused(F.refusal("PlayAgeSignalReceived", F.example("PlayAgeSignalReceived", setting: "userStatus", to: "verified")),
                      .invalidField, field: "payload.userStatus")
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "choices", to: [
            ["id": "a", "title": "A", "answer": "approve"],
        ])), .invalidField, field: "payload.choices[0].answer")
    }

    @Test("deprecated ageRangeDeclaration values are accepted", arguments: [
        "checkedByOtherMethod", "guardianCheckedByOtherMethod", "governmentIDChecked",
        "guardianGovernmentIDChecked", "paymentChecked", "guardianPaymentChecked",
    ])
    func deprecatedDeclarations(value: String) {
        #expect(F.refusal("AgeRangeShared", F.example("AgeRangeShared", setting: "ageRangeDeclaration", to: .string(value))) == nil)
        #expect(AgeRangeShared.AgeRangeDeclaration(rawValue: value).map { AgeRangeShared.AgeRangeDeclaration.deprecatedValues.contains($0) } == true)
    }

    @Test("optional fields may be null or absent")
    func nullOptional() {
        #expect(F.refusal("AgeRangeShared", ["lowerBound": 18, "upperBound": .null, "ageRangeDeclaration": .null]) == nil)
        #expect(F.refusal("AgeRangeShared", [:]) == nil)
    }

    // MARK: Age gates

    @Test("more than three age gates are refused on the array")
    func tooManyGates() {
        let error = F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates", to: [9, 13, 16, 18]))
        expectRefused(error, .invalidField, field: "payload.ageGates")
        #expect(error?.message.contains("holds 4") == true)
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates", to: [])),
                      .invalidField, field: "payload.ageGates")
    }

    @Test("gates that do not strictly increase are refused on the first offending gate")
    func gatesOutOfOrder() {
        for (gates, path) in [([13, 13], "payload.ageGates[1]"), ([16, 13], "payload.ageGates[1]"),
                              ([10, 13, 12], "payload.ageGates[2]"), ([13, 18, 16], "payload.ageGates[2]")] as [([Int], String)] {
            let error = F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates",
                                                                  to: .array(gates.map { .number(Double($0)) })))
            expectRefused(error, .invalidField, field: path)
            #expect(error?.message.contains("strictly increase") == true, "\(gates)")
        }
    }

    @Test("gates outside 1...21 are refused on the gate")
    func gatesOutOfRange() {
        for (gates, path) in [([0], "payload.ageGates[0]"), ([-1, 13], "payload.ageGates[0]"),
                              ([13, 22], "payload.ageGates[1]"), ([13, 18, 99], "payload.ageGates[2]")] as [([Int], String)] {
            expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates",
                                                                    to: .array(gates.map { .number(Double($0)) }))),
                          .invalidField, field: path)
        }
        expectRefused(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates", to: [13.5])),
                      .invalidField, field: "payload.ageGates[0]")
        #expect(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates", to: [2, 19, 21])) == nil)
    }

    @Test("a range narrower than two years is refused: [13, 14] is, [13, 15] is not; the range below the first gate counts")
    func narrowRanges() {
        let refused: [([Int], String)] = [
            ([13, 14], "payload.ageGates[1]"),
            ([13, 15, 16], "payload.ageGates[2]"),
            ([18, 19], "payload.ageGates[1]"),
            ([1], "payload.ageGates[0]"),
            ([1, 13], "payload.ageGates[0]"),
        ]
        for (gates, path) in refused {
            let error = F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates",
                                                                  to: .array(gates.map { .number(Double($0)) })))
            expectRefused(error, .invalidField, field: path)
            #expect(error?.message.contains("spans 1 year") == true, "\(gates): \(String(describing: error))")
        }
        for gates in [[13, 15], [2], [2, 4, 6], [13, 15, 17], [21], [18], [16, 18, 21]] {
            #expect(F.refusal("AgeRangeRequested", F.example("AgeRangeRequested", setting: "ageGates",
                                                              to: .array(gates.map { .number(Double($0)) }))) == nil, "\(gates)")
        }
    }

    // MARK: Bounds

    @Test("lowerBound above upperBound is refused on lowerBound (Apple and Play)")
    func boundsOrder() {
        let error = F.refusal("AgeRangeShared", ["lowerBound": 16, "upperBound": 15])
        expectRefused(error, .invalidField, field: "payload.lowerBound")
        #expect(error?.message == "lowerBound (16) is above upperBound (15)")
        expectRefused(F.refusal("PlayAgeSignalReceived", ["userStatus": "SUPERVISED", "ageLower": 16, "ageUpper": 12]),
                      .invalidField, field: "payload.ageLower")
    }

    @Test("a shared range of one year (an exact age) is refused on upperBound")
    func sharedRangeTooNarrow() {
        expectRefused(F.refusal("AgeRangeShared", ["lowerBound": 13, "upperBound": 13]), .invalidField, field: "payload.upperBound")
        expectRefused(F.refusal("PlayAgeSignalReceived", ["userStatus": "SUPERVISED", "ageLower": 16, "ageUpper": 16]),
                      .invalidField, field: "payload.ageUpper")
        #expect(F.refusal("AgeRangeShared", ["lowerBound": 13, "upperBound": 14]) == nil)
        #expect(F.refusal("AgeRangeShared", ["upperBound": 1]) == nil)
        #expect(F.refusal("PlayAgeSignalReceived", ["userStatus": "SUPERVISED", "ageLower": 0, "ageUpper": 2]) == nil)
    }

    @Test("maximumAllowedAgeRating must be 100, 200, 313, 416, 618 or 2000")
    func ratingCodes() {
        for code in [100, 200, 313, 416, 618, 2000] {
            #expect(F.refusal("DeviceRatingLimitObserved", ["maximumAllowedAgeRating": .number(Double(code))]) == nil)
        }
        for value: JSONValue in [0, 300, 312, 1000, 2001, -100, "313", 313.5, true] {
            let error = F.refusal("DeviceRatingLimitObserved", ["maximumAllowedAgeRating": value])
            expectRefused(error, .invalidField, field: "payload.maximumAllowedAgeRating")
            #expect(error?.hint?.contains("618 (18+)") == true)
        }
        expectRefused(F.refusal("InstallAttempted", F.example("InstallAttempted", setting: "ageRating", to: 400)),
                      .invalidField, field: "payload.ageRating")
    }

    // MARK: Rules about several fields

    @Test("EligibilityChecked: exactly one of isEligibleForAgeFeatures and error")
    func eligibilityRules() {
        expectRefused(F.refusal("EligibilityChecked", ["isEligibleForAgeFeatures": false, "error": "notAvailable"]),
                      .invalidField, field: "payload.error")
        expectRefused(F.refusal("EligibilityChecked", [:]), .missingField, field: "payload.isEligibleForAgeFeatures")
        expectRefused(F.refusal("EligibilityChecked", ["error": "notAvailable", "requiredRegulatoryFeatures": []]),
                      .invalidField, field: "payload.requiredRegulatoryFeatures")
        expectRefused(F.refusal("EligibilityChecked", ["isEligibleForAgeFeatures": true,
                                                       "requiredRegulatoryFeatures": ["declaredAgeRangeRequired", "declaredAgeRangeRequired"]]),
                      .invalidField, field: "payload.requiredRegulatoryFeatures[1]")
        #expect(F.refusal("EligibilityChecked", ["isEligibleForAgeFeatures": false]) == nil)
    }

    @Test("SignificantChangeAcknowledged: originalAppVersion exactly when handledBy is originalAppVersion")
    func acknowledgmentRules() {
        expectRefused(F.refusal("SignificantChangeAcknowledged", ["changeId": "v3.0", "handledBy": "originalAppVersion"]),
                      .missingField, field: "payload.originalAppVersion")
        expectRefused(F.refusal("SignificantChangeAcknowledged", ["changeId": "v3.0", "handledBy": "showSignificantUpdateAcknowledgment",
                                                                  "originalAppVersion": "3.1.0"]),
                      .invalidField, field: "payload.originalAppVersion")
    }

    @Test("PermissionQuestionSent: choice ids are distinct and defaultChoice names one of them")
    func choiceRules() {
        expectRefused(F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "choices", to: [
            ["id": "a", "title": "A", "answer": "approval"], ["id": "b", "title": "B", "answer": "denial"],
            ["id": "a", "title": "A again", "answer": "denial"],
        ])), .invalidField, field: "payload.choices[2].id")
        let error = F.refusal("PermissionQuestionSent", F.example("PermissionQuestionSent", setting: "defaultChoice", to: "maybe"))
        expectRefused(error, .invalidField, field: "payload.defaultChoice")
        #expect(error?.hint?.contains("\"allow\"") == true)
    }

    @Test("AgeExceptionDecided: guardianAuthenticated only in person")
    func exceptionRules() {
        expectRefused(F.refusal("AgeExceptionDecided", F.example("AgeExceptionDecided", setting: "channel", to: "message")),
                      .invalidField, field: "payload.guardianAuthenticated")
    }

    @Test("OperatorDecision: it affects events, a subject, or both")
    func operatorRules() {
        var payload = F.example("OperatorDecision")
        payload["affectedEventIds"] = nil
        payload["affectedSubjectId"] = nil
        expectRefused(F.refusal("OperatorDecision", .object(payload)), .missingField, field: "payload.affectedEventIds")
        payload["affectedSubjectId"] = "p_1"
        #expect(F.refusal("OperatorDecision", .object(payload)) == nil)
    }

    @Test("the same bad payload always gives the same error")
    func deterministic() {
        let payload: JSONValue = ["ageGates": [13, 14, 40, 50], "trigger": "nope", "zeta": 1, "alpha": 2]
        let first = F.refusal("AgeRangeRequested", payload)
        expectRefused(first, .unknownField, field: "payload.alpha")
        for _ in 0..<20 { #expect(F.refusal("AgeRangeRequested", payload) == first) }
    }
}
