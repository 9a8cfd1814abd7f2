import LedgerCore
import Logging
import PostgresNIO

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

    /// The row for the opening at `position` (nil when the rules judged none there: no subject, or
    /// not an opening), read from the anomalies tables on `connection`'s search path.
    static func read(log: String, position: Int64, on connection: PostgresConnection, logger: Logger) async throws -> OpeningInputs? {
        let rows = try await connection.watchedQuery("""
            SELECT age_position, category, coalesce(verified_adult, false), coalesce(controls_require_approval, false),
                   requirement_position, consent_required, notification_required, change_id, change_position,
                   word, word_position, withdrawal_position, acknowledgment_position, needs_review
              FROM openings WHERE log_id = \(log) AND position = \(position)
            """, logger: logger)
        for try await (age, category, adult, controls, requirement, consent, notification, change, changeAt, word, wordAt, withdrawal, acknowledged, review)
            in rows.decode((Int64?, String?, Bool, Bool, Int64?, Bool, Bool, String?, Int64?, String?, Int64?, Int64?, Int64?, String?).self) {
            return OpeningInputs(agePosition: age, category: category, verifiedAdult: adult, controlsRequireApproval: controls,
                                 requirementPosition: requirement, consentRequired: consent, notificationRequired: notification,
                                 changeId: change, changePosition: changeAt, word: word, wordPosition: wordAt, withdrawalPosition: withdrawal,
                                 acknowledgmentPosition: acknowledged, needsReview: review)
        }
        return nil
    }
}
