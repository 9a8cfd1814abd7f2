import LedgerCore

/// The `consent_register` projection's fold: each lifecycle step fills its own columns of an
/// entry, the first event of its kind per entry wins (every answer is counted), and a
/// `ConsentRescinded` for the subject and app withdraws every approval given before it.
///
/// A range is folded over the stored entries it touches (``storedKeys(in:)``) and the stored
/// approvals of the subjects it rescinds for (``rescindedSubjects(in:)``), loaded before it, in the
/// order of the steps (asks, failures, answers, expiries, then rescissions), each merging the
/// range's first event of its kind into the entry as the SQL fold's upserts did.
public struct ConsentRegisterFold: Sendable {
    /// An item: a question or an exception request (``ItemKey``).
    public typealias Key = ItemKey

    /// The event types the fold reads.
    public static let reads = [
        PermissionQuestionSent.eventType, PermissionQuestionFailed.eventType, ParentalAnswerReceived.eventType,
        QuestionExpired.eventType, AgeExceptionRequested.eventType, AgeExceptionDecided.eventType,
        ConsentRescinded.eventType,
    ]

    /// The entries: those loaded, then as the range leaves them.
    public private(set) var entries: [Key: ConsentEntry]
    /// The entries the range changed, in the order first changed.
    public private(set) var changed: [Key] = []
    private var changedSet: Set<Key> = []

    /// A fold over the stored `entries`.
    public init(stored entries: [ConsentEntry]) {
        self.entries = Dictionary(entries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entry `event` belongs to, if any.
    public static func key(of event: LedgerEvent) -> Key? { ItemKey.of(event) }

    /// The entries `events` touch by key: stored rows to load.
    public static func storedKeys(in events: [LedgerEvent]) -> Set<Key> { Set(events.compactMap(key(of:))) }

    /// The subjects `events` rescind approvals for: their stored, unrescinded approvals are loaded too.
    public static func rescindedSubjects(in events: [LedgerEvent]) -> Set<String> {
        Set(events.compactMap { event in
            if case .consentRescinded(let p) = event.body, p.withdrawsConsent { return event.envelope.subject }
            return nil
        })
    }

    /// Folds a range's events (in position order), step by step; `changes` resolves which change
    /// a question asks about.
    public mutating func fold(_ events: [LedgerEvent], changes: ChangeDirectory) {
        var firstOfKind: Set<String> = []
        func first(_ step: String, _ key: Key) -> Bool { firstOfKind.insert(step + "\u{0}" + key.kind + "\u{0}" + key.id).inserted }
        // Asks: the first question and the first exception request per entry.
        for event in events {
            guard case .permissionQuestionSent(let p) = event.body else { continue }
            let key = Key(kind: "question", id: p.questionId)
            guard first("asked", key) else { continue }
            let envelope = event.envelope
            update(key) { e in
                guard e.askedPosition == nil else { return false }
                e.subject = e.subject ?? envelope.subject
                e.bundleId = e.bundleId ?? event.bundleId
                e.topic = event.topic
                e.changeId = changes.changeAskedAbout(by: event)
                e.askedAt = envelope.occurredAt
                e.askedPosition = event.position
                e.askedEventId = envelope.eventId
                e.sentVia = p.sentVia.rawValue
                e.expiresAt = p.expirationDate
                return true
            }
        }
        for event in events {
            guard case .ageExceptionRequested(let p) = event.body else { continue }
            let key = Key(kind: "exception", id: p.exceptionId)
            guard first("asked", key) else { continue }
            let envelope = event.envelope
            update(key) { e in
                guard e.askedPosition == nil else { return false }
                e.subject = e.subject ?? envelope.subject
                e.bundleId = e.bundleId ?? event.bundleId
                e.topic = event.topic
                e.ratedApp = String(p.appleItemID)
                e.ratedAge = event.derivedText("ratingLabel")
                e.askedAt = envelope.occurredAt
                e.askedPosition = event.position
                e.askedEventId = envelope.eventId
                return true
            }
        }
        // Failures: the first per question.
        for event in events {
            guard case .permissionQuestionFailed(let p) = event.body else { continue }
            let key = Key(kind: "question", id: p.questionId)
            guard first("failed", key) else { continue }
            let envelope = event.envelope
            update(key) { e in
                guard e.failedPosition == nil else { return false }
                e.subject = e.subject ?? envelope.subject
                e.bundleId = e.bundleId ?? event.bundleId
                e.topic = e.topic ?? event.topic
                e.failedError = p.error.rawValue
                e.failedPosition = event.position
                e.failedEventId = envelope.eventId
                e.failedAt = envelope.occurredAt
                return true
            }
        }
        // Answers: the first per entry wins, every one is counted.
        var answers: [Key: (first: LedgerEvent, count: Int)] = [:]
        var answerOrder: [Key] = []
        for event in events {
            let key: Key
            switch event.body {
            case .parentalAnswerReceived(let p): key = Key(kind: "question", id: p.questionId)
            case .ageExceptionDecided(let p): key = Key(kind: "exception", id: p.exceptionId)
            case .eligibilityChecked, .ageRangeRequested, .ageRangeShared, .ageRangeDeclined, .ageRangeRequestFailed,
                 .significantChangeDeclared, .significantChangeAcknowledged, .permissionQuestionSent,
                 .permissionQuestionFailed, .questionExpired, .consentRescinded, .accessGateApplied,
                 .deviceRatingLimitObserved, .installAttempted, .ageExceptionRequested, .approveInPersonFailed, .approveInPersonPresented, .storeConsentStatusReceived,
                 .significantChangeNotifiedToStore,
                 .playAgeSignalReceived, .ageVerificationCompleted, .operatorDecision, .retentionApplied, .subjectErased, .withdrawalDelivered:
                continue
            }
            if let seen = answers[key] {
                answers[key] = (seen.first, seen.count + 1)
            } else {
                answers[key] = (event, 1)
                answerOrder.append(key)
            }
        }
        for key in answerOrder {
            guard let (event, count) = answers[key] else { continue }
            let envelope = event.envelope
            let (answer, channel, at, guardian, authenticated): (String, String, String, String?, String?)
            if case .parentalAnswerReceived(let p) = event.body {
                (answer, channel, at, guardian, authenticated) = (p.answer.rawValue, p.channel.rawValue, p.receivedAt, p.guardianId, nil)
            } else if case .ageExceptionDecided(let p) = event.body {
                (answer, channel, at, guardian, authenticated) = (p.decision == .approved ? "approval" : "denial", p.channel.rawValue,
                                                                  p.decidedAt, p.guardianId, p.guardianAuthenticated.map { $0 ? "true" : "false" })
            } else {
                continue
            }
            update(key) { e in
                if let stored = e.answeredPosition, stored >= event.position { return false }
                e.subject = e.subject ?? envelope.subject
                e.bundleId = e.bundleId ?? event.bundleId
                if e.answeredPosition == nil {
                    e.answer = e.answer ?? answer
                    e.answerChannel = channel
                    e.answeredAt = at
                    e.answeredBy = guardian
                    e.guardianAuthenticated = authenticated
                    e.answeredEventId = envelope.eventId
                    e.answeredPosition = event.position
                }
                e.answersReceived += count
                return true
            }
        }
        // Expiries: the first per question.
        for event in events {
            guard case .questionExpired(let p) = event.body else { continue }
            let key = Key(kind: "question", id: p.questionId)
            guard first("expired", key) else { continue }
            let envelope = event.envelope
            update(key) { e in
                guard e.expiredPosition == nil else { return false }
                e.subject = e.subject ?? envelope.subject
                e.bundleId = e.bundleId ?? event.bundleId
                e.expiredAt = envelope.occurredAt
                e.expiredPosition = event.position
                e.expiredEventId = envelope.eventId
                return true
            }
        }
        // Withdrawals: each approval given before a withdrawal of consent for its subject and app is
        // withdrawn by the first such withdrawal: a question's by the app's bundleId, an age-rating
        // exception's by the app it names (the notification's appAppleId). A notification that
        // withdraws nothing (ConsentRescinded.withdrawsConsent) changes no entry.
        let rescissions = events.filter { if case .consentRescinded(let p) = $0.body { return p.withdrawsConsent } else { return false } }
        guard !rescissions.isEmpty else { return }
        let candidates = entries.values.filter { $0.answer == "approval" && $0.rescindedPosition == nil }
        for entry in candidates {
            guard let subject = entry.subject, let approved = entry.answeredPosition,
                  let rescission = rescissions.first(where: { r in
                      guard case .consentRescinded(let p) = r.body, r.envelope.subject == subject, approved < r.position else { return false }
                      return entry.kind == "exception" ? p.appAppleId.map(String.init) == entry.ratedApp : p.bundleId == entry.bundleId
                  }) else { continue }
            update(entry.key) { e in
                e.rescindedAt = rescission.envelope.occurredAt
                e.rescindedPosition = rescission.position
                e.rescindedEventId = rescission.envelope.eventId
                return true
            }
        }
    }

    /// Applies `body` to the entry at `key` (created empty when absent); it returns whether it
    /// changed anything (a new entry counts as changed only when it did).
    private mutating func update(_ key: Key, _ body: (inout ConsentEntry) -> Bool) {
        var entry = entries[key] ?? ConsentEntry(kind: key.kind, itemId: key.id)
        guard body(&entry) else { return }
        entries[key] = entry
        if changedSet.insert(key).inserted { changed.append(key) }
    }

    /// The changed entries, to store.
    public var changedEntries: [ConsentEntry] { changed.compactMap { entries[$0] } }
}
