/// The NDJSON lines of the benchmark's events, modelled on the demo history
/// (Sources/consent-ledger/Support/DemoHistory.swift) and valid for the event catalogue: an
/// envelope with app, jurisdiction, actor and subject, on the subject's stream, and a payload
/// (with the facts the ledger derives) of four to six fields; about 540 bytes in canonical form.
///
/// The mix: 45% `AgeRangeShared` (version 2), 20% `AgeRangeRequested`, 15% `EligibilityChecked`,
/// 20% `AccessGateApplied` (with correlation and causation ids, so those columns hold both values
/// and NULLs).
enum EventShapes {
    private static let apps = [
        #"{"appVersion":"3.0.0","bundleId":"com.example.kidsdraw","osVersion":"26.1","platform":"iOS"}"#,
        #"{"appVersion":"5.12.4","bundleId":"com.example.storytime","osVersion":"26.0.1","platform":"iPadOS"}"#,
        #"{"appVersion":"1.8.0","bundleId":"com.example.chessclub","osVersion":"16","platform":"android"}"#,
    ]
    private static let jurisdictions = [
        #"{"basis":"asserted","code":"US-TX"}"#, #"{"basis":"asserted","code":"US-UT"}"#,
        #"{"basis":"storefront","code":"AU"}"#, #"{"basis":"storefront","code":"GB"}"#,
        #"{"basis":"inferred","code":"EU"}"#,
    ]
    /// Age ranges as DeclaredAgeRange returns them for the gates 13, 16 and 18.
    private static let ranges = [
        #""upperBound":12"#, #""lowerBound":13,"upperBound":15"#, #""lowerBound":16,"upperBound":17"#, #""lowerBound":18"#,
    ]
    private static let controls = [
        #"[]"#, #"["significantAppChangeApprovalRequired"]"#,
        #"["communicationLimits","significantAppChangeApprovalRequired"]"#,
    ]

    /// One event line for `subject`, of a shape drawn from `random`.
    static func line(subject: String, occurredAt: String, random: inout SeededGenerator) -> String {
        let eventId = random.uuid()
        let app = apps[Int(random.next() % UInt64(apps.count))]
        let jurisdiction = jurisdictions[Int(random.next() % UInt64(jurisdictions.count))]
        let envelope = #""eventId":"\#(eventId)","stream":"subject-\#(subject)","occurredAt":"\#(occurredAt)","subject":"\#(subject)","app":\#(app),"jurisdiction":\#(jurisdiction)"#
        switch random.next() % 100 {
        case 0..<45:
            let range = ranges[Int(random.next() % UInt64(ranges.count))]
            let control = controls[Int(random.next() % UInt64(controls.count))]
            let actor = random.next() % 2 == 0
                ? #"{"id":"\#(Workload.pseudonym("g_", Int(random.next() % 1_000_000)))","kind":"guardian"}"#
                : #"{"kind":"subject"}"#
            let declaration = actor.contains("guardian") ? "guardianDeclared" : "selfDeclared"
            return #"{\#(envelope),"type":"AgeRangeShared","schemaVersion":2,"actor":\#(actor),"payload":{"activeParentalControls":\#(control),"ageRangeDeclaration":"\#(declaration)",\#(range)}}"#
        case 45..<65:
            let trigger = ["launch", "accountCreation", "significantChange", "anniversaryRecheck"][Int(random.next() % 4)]
            return #"{\#(envelope),"type":"AgeRangeRequested","schemaVersion":1,"actor":{"kind":"app"},"payload":{"ageGates":[13,16,18],"trigger":"\#(trigger)"}}"#
        case 65..<80:
            return #"{\#(envelope),"type":"EligibilityChecked","schemaVersion":1,"actor":{"kind":"app"},"payload":{"isEligibleForAgeFeatures":true,"requiredRegulatoryFeatures":["declaredAgeRangeRequired","significantAppChangeRequiresParentalConsent"]}}"#
        default:
            let shared = random.uuid()
            let answer = random.uuid()
            let question = random.uuid()
            let state = random.next() % 4 == 0 ? "closed" : "open"
            return #"{\#(envelope),"type":"AccessGateApplied","schemaVersion":1,"actor":{"kind":"app"},"correlationId":"\#(question)","causationId":"\#(answer)","payload":{"basis":["\#(shared)","\#(answer)"],"feature":"sharedRooms","policyVersion":"2026-11","state":"\#(state)"}}"#
        }
    }
}
