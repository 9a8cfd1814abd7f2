import LedgerCore

/// The rules of the rules catalogue (docs/rules.md) the anomalies fold decides: every rule without
/// a policy setting (those with one, `rescission-not-enforced` and `age-signal-expired`, are decided
/// by the reports and `explain` against the policy's threshold). Each finding's kind is one of these,
/// and its source (`rule` for a violation, `catalogue` for a surprising fact) is the catalogue's.
public enum FoldedRule: String, CaseIterable, Sendable {
    case accessAfterDenial = "access-after-denial"
    case accessWithoutApproval = "access-without-approval"
    case accessAfterRescission = "access-after-rescission"
    case accessWithoutAgeSignal = "access-without-age-signal"
    case signalDisregarded = "signal-disregarded"
    case adultAccessWithoutAcknowledgment = "adult-access-without-acknowledgment"
    case unverifiedAdultAccess = "unverified-adult-access"
    case accessOpenedWithoutBasis = "access-opened-without-basis"
    case acknowledgmentVersionFalse = "acknowledgment-version-false"
    case acknowledgmentBeforeChange = "acknowledgment-before-change"
    case answerBeforeQuestion = "answer-before-question"
    case answerAfterQuestionExpired = "answer-after-question-expired"
    case exceptionInstallWithoutApproval = "exception-install-without-approval"
    case inPersonApprovalUnauthenticated = "in-person-approval-unauthenticated"
    case answerAfterExpiry = "answer-after-expiry"
    case exceptionDecidedTwice = "exception-decided-twice"
    case decisionWithoutRequest = "decision-without-request"
    case changeRedeclared = "change-redeclared"
    case occurredInFuture = "occurred-in-future"
    case rescissionUnverified = "rescission-unverified"
    case implausibleDeclaration = "implausible-declaration"

    /// The catalogue's rule.
    public var rule: LedgerRule {
        guard let rule = RuleCatalogue.rule(rawValue) else { preconditionFailure("\(rawValue) is not in the rules catalogue") }
        return rule
    }

    /// The findings' source: `rule` for a violation, `catalogue` for a surprising fact.
    public var source: String { rule.kind.findingSource }
}
