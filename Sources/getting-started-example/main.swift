// docs/getting-started.md's Swift, compiled with the package: each block between `// guide:` markers
// is in the guide as it is written here (GettingStartedSwiftTests checks it). Run it against a
// ledger with LEDGER_URL and CONSENT_LEDGER_INGEST_KEY set to post the story's events:
//   swift run getting-started-example
import Foundation

// guide: source
import ConsentLedgerEvents
import LedgerClient

// Once per app build: which app, which version (the rules read it), where its users are.
let kidsDraw = EventSource(bundleId: "com.example.kidsdraw", appVersion: "3.0.0", platform: .iOS, osVersion: "26.1",
                           originalAppVersion: "2.4.0", jurisdiction: "US-TX")
let child = "p_7f3a9c"   // the child's pseudonym (docs/pseudonyms.md), never a name
// guide: end

// guide: age range
// The device answered `.sharing(range:)`: send your backend the range's bounds, its
// `ageRangeDeclaration` and `activeParentalControls`; the backend records them.
let shared = try kidsDraw.event(
    AgeRangeShared(lowerBound: 13, upperBound: 15, ageRangeDeclaration: .guardianDeclared,
                   activeParentalControls: [.significantAppChangeApprovalRequired]),
    subject: child, actor: .guardian)
// `.declinedSharing`:
let declined = try kidsDraw.event(AgeRangeDeclined(), subject: child, actor: .subject)
// guide: end

// guide: question
// PermissionKit: the question about a significant change, and the parent's answer when it comes.
let questionId = UUID().uuidString.lowercased()
let asked = try kidsDraw.event(
    PermissionQuestionSent(
        questionId: questionId, changeId: "v3.0",
        topic: .significantAppUpdate(description: "Version 3.0 adds drawing together with friends in shared rooms."),
        choices: [.init(id: "allow", title: "Allow", answer: .approval), .init(id: "deny", title: "Don’t Allow", answer: .denial)],
        defaultChoice: "deny", expirationDate: "2026-11-27T16:02:25Z", sentVia: .askCenter),
    subject: child)
let answered = try kidsDraw.event(
    ParentalAnswerReceived(questionId: questionId, choiceId: "allow", choiceTitle: "Allow", answer: .approval,
                           receivedAt: "2026-11-20T18:41:03Z", channel: .message),   // guardianId only when the platform says who
    subject: child, actor: .guardian)
// guide: end

// guide: exception
// MarketplaceKit age-rating exception: the request, then the parent's decision.
let requested = try kidsDraw.event(
    AgeExceptionRequested(exceptionId: "ex-5521", appleItemID: 6471234567, ageRating: .sixteenPlus), subject: child)
let decided = try kidsDraw.event(
    AgeExceptionDecided(exceptionId: "ex-5521", decision: .approved, channel: .inPerson, decidedAt: "2026-11-21T10:19:40Z",
                        guardianAuthenticated: true),
    subject: child, actor: .guardian)
// guide: end

// guide: gate
// The feature opened, citing the events it rests on (their eventIds): what `explain` and the rules read.
let opened = try kidsDraw.event(
    AccessGateApplied(feature: "sharedRooms", state: .open, basis: [shared.envelope.eventId, answered.envelope.eventId],
                      policyVersion: "2026-11"),
    subject: child, actor: .app)
// guide: end

// guide: send
let ledger = LedgerClient(baseURL: ProcessInfo.processInfo.environment["LEDGER_URL"] ?? "https://ledger.example.com",
                          apiKey: ProcessInfo.processInfo.environment["CONSENT_LEDGER_INGEST_KEY"] ?? "")
let answer = try await ledger.append(log: "acme", events: [shared, asked, answered, requested, decided, opened],
                                     idempotencyKey: shared.envelope.eventId)   // the same key on every retry
print("stored at positions \(answer.firstPosition) to \(answer.lastPosition); a replay: \(answer.idempotentReplay)")
// guide: end
_ = declined
