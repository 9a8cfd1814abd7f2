/// One plain sentence per event, for people settling a dispute: what the event says happened, in
/// the words of docs/design/events.md, without the JSON. Personal data is never in the sentence (sealed
/// fields are not read).
///
/// ```swift
/// EventNarrative.sentence(type: "ParentalAnswerReceived", payload: payload, derived: nil)
/// // "A parent answered question 6c1e…: approval (\"Allow\"), by message, received 2026-11-20T18:41:03Z; guardian g_2b81d4."
/// ```
public enum EventNarrative {
    /// The sentence for an event of `type` with `payload` (current schema version) and the
    /// ledger's `derived` facts.
    public static func sentence(type: String, payload: JSONValue, derived: JSONValue?) -> String {
        let p = Reader(payload)
        let d = Reader(derived ?? .null)
        switch type {
        case "EligibilityChecked":
            if let error = p.string("error") { return "The eligibility check failed: \(error)." }
            let eligible = p.bool("isEligibleForAgeFeatures") == true
            let features = p.strings("requiredRegulatoryFeatures")
            return "The app checked eligibility: age features \(eligible ? "apply" : "do not apply")"
                + (features.isEmpty ? "." : "; required: \(features.joined(separator: ", ")).")
        case "AgeRangeRequested":
            let gates = p.ints("ageGates").map(String.init).joined(separator: ", ")
            return "The app asked for an age range (gates \(gates)) at \(p.string("trigger") ?? "?")."
        case "AgeRangeShared":
            let controls = p.strings("activeParentalControls")
            return "An age range was shared: \(range(p.int("lowerBound"), p.int("upperBound"))), "
                + "category \(d.string("legalCategory") ?? "?"), declared \(p.string("ageRangeDeclaration") ?? "(not said)")"
                + (d.bool("verifiedAdult") == true ? ", a verified adult" : "")
                + "; parental controls: \(controls.isEmpty ? "none" : controls.joined(separator: ", "))."
        case "AgeRangeDeclined":
            return "The person declined to share an age range."
        case "AgeRangeRequestFailed":
            return "The age range request failed: \(p.string("error") ?? "?")."
        case "SignificantChangeDeclared":
            return "The app declared significant change \(p.string("changeId") ?? "?") in version "
                + "\(p.string("introducedInVersion") ?? "?") (age rating \(p.string("ageRatingBefore") ?? "?") → "
                + "\(p.string("ageRatingAfter") ?? "?")): \"\(p.string("description") ?? "")\""
        case "SignificantChangeAcknowledged":
            return "Change \(p.string("changeId") ?? "?") was acknowledged (\(p.string("handledBy") ?? "?")"
                + (p.string("originalAppVersion").map { ", original app version \($0)" } ?? "") + ")."
        case "PermissionQuestionSent":
            var topic = "a custom topic"
            if let t = p.value("topic")?.objectValue {
                if let update = t["significantAppUpdate"] { topic = "the significant update \"\(Reader(update).string("description") ?? "")\"" }
                if t["communication"] != nil { topic = "communicating with someone (contact details sealed)" }
                if let custom = t["custom"] {
                    topic = "\(Reader(custom).string("name") ?? "a custom topic")"
                        + (Reader(custom).value("description").map { $0 != .null } == true ? " (the text shown to the parent sealed)" : "")
                }
            }
            return "A parent was asked (question \(p.string("questionId") ?? "?"), via \(p.string("sentVia") ?? "?")) about \(topic)"
                + (p.string("changeId").map { " for change \($0)" } ?? "")
                + (p.string("expirationDate").map { "; expires \($0)" } ?? "; no expiry") + "."
        case "PermissionQuestionFailed":
            return "The question \(p.string("questionId") ?? "?") could not be asked: \(p.string("error") ?? "?")."
        case "ParentalAnswerReceived":
            return "A parent answered question \(p.string("questionId") ?? "?"): \(p.string("answer") ?? "?") "
                + "(\"\(p.string("choiceTitle") ?? "")\"), \(channel(p.string("channel"))), received \(p.string("receivedAt") ?? "?"); "
                + (p.string("guardianId").map { "guardian \($0)." } ?? "guardian not disclosed by the platform.")
        case "QuestionExpired":
            return "Question \(p.string("questionId") ?? "?") expired unanswered at \(p.string("expirationDate") ?? "?")."
        case "ConsentRescinded":
            return "The App Store reported consent rescinded for \(p.string("bundleId") ?? "?") "
                + "(signature \(p.string("signatureCheck") ?? "?")); the app's action: \(p.string("enforcementAction") ?? "?")."
        case "AccessGateApplied":
            let basis = p.strings("basis")
            return "The app \(p.string("state") == "open" ? "OPENED" : "CLOSED") feature \(p.string("feature") ?? "?") "
                + "(policy \(p.string("policyVersion") ?? "?")), citing "
                + (basis.isEmpty ? "no event." : "\(basis.count) event\(basis.count == 1 ? "" : "s"): \(basis.joined(separator: ", ")).")
        case "DeviceRatingLimitObserved":
            return "The device allows apps rated up to \(d.string("ratingLabel") ?? "?")."
        case "InstallAttempted":
            return "An install of app \(p.int("appleItemID").map(String.init) ?? "?") (rated \(d.string("ratingLabel") ?? "?")) "
                + "was attempted\(p.bool("requestAgeException") == true ? " asking for an age-rating exception" : ""): "
                + "\(p.string("outcome") ?? "?")" + (p.string("exceptionId").map { ", exception \($0) queued" } ?? "") + "."
        case "AgeExceptionRequested":
            return "Age-rating exception \(p.string("exceptionId") ?? "?") is pending for app \(p.int("appleItemID").map(String.init) ?? "?")"
                + (d.string("ratingLabel").map { " (rated \($0))" } ?? "") + "."
        case "AgeExceptionDecided":
            return "A guardian \(p.string("decision") ?? "?") exception \(p.string("exceptionId") ?? "?"), \(channel(p.string("channel")))"
                + (p.bool("guardianAuthenticated") == true ? " with Apple Account authentication" : "")
                + ", at \(p.string("decidedAt") ?? "?"); "
                + (p.string("guardianId").map { "guardian \($0)." } ?? "guardian not disclosed.")
        case "ApproveInPersonFailed":
            return "Approving in person failed: \(p.string("error") ?? "?")" + (p.string("exceptionId").map { " (exception \($0))" } ?? "") + "."
        case "PlayAgeSignalReceived":
            return "Google Play reported \(p.string("userStatus") ?? "?"), \(range(p.int("ageLower"), p.int("ageUpper"), inclusiveUpper: true)), "
                + "category \(d.string("legalCategory") ?? "?")"
                + (p.string("mostRecentApprovalDate").map { "; latest approval \($0)" } ?? "") + "."
        case "AgeVerificationCompleted":
            let method = p.string("method") ?? "?"
            let by = method == "appAgeGate" ? "the app's own age gate" : "\(p.string("provider") ?? "a third party") (\(method))"
            let outcome = p.string("outcome") ?? "?"
            guard outcome == "passed" else {
                return "An age check by \(by) \(outcome == "failed" ? "failed" : "was \(outcome)"): no range found."
            }
            return "An age check by \(by) passed: \(range(p.int("lowerBound"), p.int("upperBound"))), "
                + "category \(d.string("legalCategory") ?? "?")" + (d.bool("verifiedAdult") == true ? ", a verified adult" : "") + "."
        case "OperatorDecision":
            return "Operator \(p.string("operatorId") ?? "?") recorded an \(p.string("decision") ?? "?")"
                + " (reason sealed as personal data)"
                + (p.strings("affectedEventIds").isEmpty ? "" : " about \(p.strings("affectedEventIds").joined(separator: ", "))") + "."
        case "RetentionApplied":
            return "Retention policy \(p.string("policyId") ?? "?") erased \(p.string("scope") ?? "?") (\(p.string("reason") ?? "?"))."
        case "SubjectErased":
            return "The subject's key was destroyed (\(p.string("reason") ?? "?")): personal fields are unreadable from now on."
        default:
            return "\(type) (no description for this type)."
        }
    }

    /// `under 13`, `13 to 15`, `18 or over`, `any age`.
    static func range(_ lower: Int?, _ upper: Int?, inclusiveUpper: Bool = true) -> String {
        switch (lower, upper) {
        case let (l?, u?): return "\(l) to \(u)"
        case let (nil, u?): return "under \(u + 1)"
        case let (l?, nil): return "\(l) or over"
        case (nil, nil): return "no bounds"
        }
    }

    static func channel(_ value: String?) -> String {
        value == "inPerson" ? "in person" : value == "message" ? "by message" : (value ?? "?")
    }

    /// Reads members of a JSON object leniently (a missing or mistyped member reads as nil).
    struct Reader {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }
        func value(_ key: String) -> JSONValue? { value[key] }
        func string(_ key: String) -> String? { value[key]?.stringValue }
        func bool(_ key: String) -> Bool? { value[key]?.boolValue }
        func int(_ key: String) -> Int? { value[key]?.intValue }
        func ints(_ key: String) -> [Int] { value[key]?.arrayValue?.compactMap(\.intValue) ?? [] }
        func strings(_ key: String) -> [String] { value[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    }
}
