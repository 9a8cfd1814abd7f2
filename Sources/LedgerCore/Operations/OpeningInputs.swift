import Foundation

/// Every fact the rules judged one opening of a feature on: the anomalies projection's
/// `openings` row, written by the same statement that writes the opening's findings. `explain`,
/// its console page and its JSON show this and nothing recomputed, so what they say of an opening
/// is what the findings (and the regulator report) rest on.
public struct OpeningInputs: Sendable, Equatable {
    /// The subject's latest age signal before the opening, and what it said.
    public var agePosition: Int64?
    /// That signal's legal category (`under13` … `adult`), if it had one.
    public var category: String?
    /// Whether that signal made the subject a verified adult.
    public var verifiedAdult: Bool
    /// Whether that signal's parental controls required approval of significant changes
    /// (`significantAppChangeApprovalRequired`, or a supervised Play account).
    public var controlsRequireApproval: Bool
    /// The latest `EligibilityChecked` for the subject and app before the opening.
    public var requirementPosition: Int64?
    /// Whether it required parental consent for significant changes (eligible, and
    /// `significantAppChangeRequiresParentalConsent`).
    public var consentRequired: Bool
    /// Whether it required adults to be notified of significant changes.
    public var notificationRequired: Bool
    /// The app's significant change in force at the opening, if any.
    public var changeId: String?
    /// Where that change was declared.
    public var changePosition: Int64?
    /// The parent's latest word on that change before the opening (`approval`, `denial`).
    public var word: String?
    /// Where that word was recorded.
    public var wordPosition: Int64?
    /// A withdrawal of consent for the app (App Store RESCIND_CONSENT) still standing at the
    /// opening: no approval for the app given since.
    public var withdrawalPosition: Int64?
    /// The subject's acknowledgment of the change, if any.
    public var acknowledgmentPosition: Int64?
    /// The fact the rules lacked and judged the change in force without (decision 0064), if any.
    public var needsReview: String?

    /// Whether a parent's approval of the change was required, as the rules judge it: DeclaredAgeRange
    /// required parental consent, or the device's parental controls required approval.
    public var approvalRequired: Bool { consentRequired || controlsRequireApproval }

    /// The facts as sentences, one per line, for `explain` and its console page.
    public var lines: [String] {
        var lines: [String] = []
        if let withdrawalPosition {
            lines.append("Consent for the app: withdrawn by the App Store's RESCIND_CONSENT (#\(withdrawalPosition)), no approval given since")
        }
        if let agePosition {
            lines.append("The subject then: \(category ?? "no legal category")\(verifiedAdult ? ", a verified adult" : "") (age signal #\(agePosition))")
        } else {
            lines.append("The subject then: no age signal on record before the opening")
        }
        var by: [String] = []
        if consentRequired, let requirementPosition { by.append("DeclaredAgeRange's requirement of parental consent (#\(requirementPosition))") }
        if controlsRequireApproval, let agePosition { by.append("the device's parental controls (age signal #\(agePosition))") }
        lines.append(by.isEmpty ? "A parent's approval of significant changes: not required"
                                : "A parent's approval of significant changes: required by " + by.joined(separator: " and "))
        if notificationRequired, let requirementPosition {
            lines.append("Adults to be shown significant changes: required (#\(requirementPosition))")
        }
        guard let changeId else {
            lines.append("The app's significant change in force: none")
            return lines
        }
        lines.append("The app's significant change in force: \(changeId)" + (changePosition.map { " (#\($0))" } ?? ""))
        if let word, let wordPosition {
            lines.append("The parent's latest word on it: \(word) (#\(wordPosition))")
        } else {
            lines.append("The parent's latest word on it: none on record")
        }
        if let acknowledgmentPosition { lines.append("The subject acknowledged it (#\(acknowledgmentPosition))") }
        if let needsReview { lines.append("Judged in force without a fact, so needs review: \(needsReview)") }
        return lines
    }

    /// The facts as JSON, for `explain --json`.
    public var json: JSONValue {
        func number(_ value: Int64?) -> JSONValue { value.map { .number(Double($0)) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object(["agePosition": number(agePosition), "category": text(category), "verifiedAdult": .bool(verifiedAdult),
                        "controlsRequireApproval": .bool(controlsRequireApproval), "requirementPosition": number(requirementPosition),
                        "consentRequired": .bool(consentRequired), "notificationRequired": .bool(notificationRequired),
                        "approvalRequired": .bool(approvalRequired), "changeId": text(changeId), "changePosition": number(changePosition),
                        "word": text(word), "wordPosition": number(wordPosition), "withdrawalPosition": number(withdrawalPosition),
                        "acknowledgmentPosition": number(acknowledgmentPosition), "needsReview": text(needsReview)])
    }

    /// A value from its parts (the storage module reads it from rows).
    package init(
        agePosition: Int64? = nil,
        category: String? = nil,
        verifiedAdult: Bool,
        controlsRequireApproval: Bool,
        requirementPosition: Int64? = nil,
        consentRequired: Bool,
        notificationRequired: Bool,
        changeId: String? = nil,
        changePosition: Int64? = nil,
        word: String? = nil,
        wordPosition: Int64? = nil,
        withdrawalPosition: Int64? = nil,
        acknowledgmentPosition: Int64? = nil,
        needsReview: String? = nil
    ) {
        self.agePosition = agePosition
        self.category = category
        self.verifiedAdult = verifiedAdult
        self.controlsRequireApproval = controlsRequireApproval
        self.requirementPosition = requirementPosition
        self.consentRequired = consentRequired
        self.notificationRequired = notificationRequired
        self.changeId = changeId
        self.changePosition = changePosition
        self.word = word
        self.wordPosition = wordPosition
        self.withdrawalPosition = withdrawalPosition
        self.acknowledgmentPosition = acknowledgmentPosition
        self.needsReview = needsReview
    }
}
