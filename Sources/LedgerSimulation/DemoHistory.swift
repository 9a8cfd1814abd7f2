import LedgerCore
/// The small, realistic history `consent-ledger demo` appends: one family, one app.
///
/// A 14-year-old's age range is shared as declared by a guardian; the app declares a significant
/// change, asks the parent through PermissionKit and records the approval and the feature it
/// opened; then the teen tries to install a 16+ app, the device's limit stops it, and the parent
/// approves the age-rating exception in person. Ids and times are fixed, so running the demo
/// twice appends nothing the second time (same idempotency key). Tests use it as a scenario small
/// enough to check by hand.
public enum DemoHistory {
    /// The teen's pseudonym.
    public static let subject = "p_7f3a9c"
    /// The approving guardian's pseudonym.
    public static let guardian = "g_2b81d4"
    /// The PermissionKit question's id.
    public static let questionId = "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318"

    /// The events, one NDJSON line each.
    public static var lines: [String] {
        let app = #""app":{"appVersion":"3.0.0","bundleId":"com.example.kidsdraw","osVersion":"26.1","platform":"iOS"},"jurisdiction":{"basis":"asserted","code":"US-TX"}"#
        let s = subject
        return [
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d01","stream":"subject-\#(s)","type":"EligibilityChecked","schemaVersion":1,"occurredAt":"2026-11-20T16:02:11Z","subject":"\#(s)","actor":{"kind":"app"},\#(app),"payload":{"isEligibleForAgeFeatures":true,"requiredRegulatoryFeatures":["declaredAgeRangeRequired","significantAppChangeRequiresParentalConsent"]}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d02","stream":"subject-\#(s)","type":"AgeRangeRequested","schemaVersion":1,"occurredAt":"2026-11-20T16:02:12Z","subject":"\#(s)","actor":{"kind":"app"},\#(app),"payload":{"ageGates":[13,16,18],"trigger":"launch"}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d03","stream":"subject-\#(s)","type":"AgeRangeShared","schemaVersion":2,"occurredAt":"2026-11-20T16:02:19Z","subject":"\#(s)","actor":{"kind":"guardian"},\#(app),"payload":{"activeParentalControls":["significantAppChangeApprovalRequired"],"ageRangeDeclaration":"guardianDeclared","lowerBound":13,"upperBound":15}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d04","stream":"change-v3.0","type":"SignificantChangeDeclared","schemaVersion":1,"occurredAt":"2026-11-20T09:00:00Z","actor":{"kind":"app"},\#(app),"payload":{"changeId":"v3.0","description":"Version 3.0 adds drawing together with friends in shared rooms.","introducedInVersion":"3.0.0","ageRatingAfter":"13+","ageRatingBefore":"9+"}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d05","stream":"question-\#(questionId)","type":"PermissionQuestionSent","schemaVersion":1,"occurredAt":"2026-11-20T16:02:25Z","subject":"\#(s)","actor":{"kind":"app"},\#(app),"correlationId":"\#(questionId)","payload":{"choices":[{"answer":"approval","id":"allow","title":"Allow"},{"answer":"denial","id":"deny","title":"Don't Allow"}],"defaultChoice":"deny","expirationDate":"2026-11-27T16:02:25Z","questionId":"\#(questionId)","sentVia":"askCenter","topic":{"significantAppUpdate":{"description":"Version 3.0 adds drawing together with friends in shared rooms."}}}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d06","stream":"question-\#(questionId)","type":"ParentalAnswerReceived","schemaVersion":1,"occurredAt":"2026-11-20T18:41:03Z","subject":"\#(s)","actor":{"kind":"guardian","id":"\#(guardian)"},\#(app),"correlationId":"\#(questionId)","causationId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d05","payload":{"answer":"approval","channel":"message","choiceId":"allow","choiceTitle":"Allow","guardianId":"\#(guardian)","questionId":"\#(questionId)","receivedAt":"2026-11-20T18:41:03Z"}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d07","stream":"subject-\#(s)","type":"AccessGateApplied","schemaVersion":1,"occurredAt":"2026-11-20T18:41:04Z","subject":"\#(s)","actor":{"kind":"app"},\#(app),"correlationId":"\#(questionId)","payload":{"basis":["0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d03","0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d06"],"feature":"sharedRooms","policyVersion":"2026-11","state":"open"}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d08","stream":"subject-\#(s)","type":"DeviceRatingLimitObserved","schemaVersion":1,"occurredAt":"2026-11-21T10:15:00Z","subject":"\#(s)","actor":{"kind":"app"},"app":{"bundleId":"com.example.marketplace","platform":"iOS"},"payload":{"maximumAllowedAgeRating":313}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d09","stream":"exception-ex-5521","type":"InstallAttempted","schemaVersion":1,"occurredAt":"2026-11-21T10:15:02Z","subject":"\#(s)","actor":{"kind":"subject"},"app":{"bundleId":"com.example.marketplace","platform":"iOS"},"payload":{"ageRating":416,"appleItemID":6471234567,"outcome":"cancelled","requestAgeException":true}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0a","stream":"exception-ex-5521","type":"AgeExceptionRequested","schemaVersion":1,"occurredAt":"2026-11-21T10:15:03Z","subject":"\#(s)","actor":{"kind":"app"},"app":{"bundleId":"com.example.marketplace","platform":"iOS"},"payload":{"ageRating":416,"appleItemID":6471234567,"exceptionId":"ex-5521"}}"#,
            #"{"eventId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0b","stream":"exception-ex-5521","type":"AgeExceptionDecided","schemaVersion":1,"occurredAt":"2026-11-21T10:19:40Z","subject":"\#(s)","actor":{"kind":"guardian","id":"\#(guardian)"},"app":{"bundleId":"com.example.marketplace","platform":"iOS"},"causationId":"0c4b2d6e-1f3a-4b5c-8d7e-9f0a1b2c3d0a","payload":{"channel":"inPerson","decidedAt":"2026-11-21T10:19:40Z","decision":"approved","exceptionId":"ex-5521","guardianAuthenticated":true}}"#,
        ]
    }
}
