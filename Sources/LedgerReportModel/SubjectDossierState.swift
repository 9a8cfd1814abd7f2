/// What the subject_state and consent_register projections hold about a subject after an event
/// (as `consent-ledger state` and `replay` print it): a dossier step's `state`, decoded from the
/// snapshot the replay makes.
public struct SubjectDossierState: Codable, Sendable, Equatable {
    /// The subject's pseudonym.
    public var subject: String
    /// The latest age signal; null before the first one.
    @Nullable public var age: Age?
    /// The active parental controls of the latest AgeRangeShared; null before the first one.
    @Nullable public var parentalControls: [String]?
    /// Whether the subject was erased.
    public var erased: Bool
    /// The latest age signal of each platform.
    public var signals: [Signal]
    /// Each gated feature's state.
    public var features: [Feature]
    /// What the apps stated about the subject (eligibility, …).
    public var appFacts: [AppFact]
    /// The questions to parents and the age-rating exceptions.
    public var consents: [Consent]

    /// The latest age signal.
    public struct Age: Codable, Sendable, Equatable {
        /// The legal category derived from the range (`under13`, `13to15`, …).
        public var category: String
        /// The lowest age of the range, inclusive.
        @Nullable public var lower: Int?
        /// The highest age of the range, inclusive.
        @Nullable public var upper: Int?
        /// How the age was declared or checked.
        @Nullable public var declaration: String?
        /// An adult whose own age was checked.
        public var verifiedAdult: Bool
        /// The type of the event the age rests on.
        public var source: String
        /// That event's position.
        public var position: Int
        /// That event's id.
        public var eventId: String
    }

    /// One platform's latest age signal.
    public struct Signal: Codable, Sendable, Equatable {
        /// `apple`, `google`, …
        public var platform: String
        /// What the signal said (`shared`, `declined`, …).
        public var outcome: String
        /// The category it gave.
        @Nullable public var category: String?
        /// The event's position.
        public var position: Int
    }

    /// A gated feature's state.
    public struct Feature: Codable, Sendable, Equatable {
        /// The app's bundle id (empty: no named app).
        public var app: String
        /// The feature.
        public var feature: String
        /// `open` or `closed`.
        public var state: String
        /// The policy version applied.
        public var policyVersion: String
        /// The ids of the events the gate cites.
        public var basis: [String]
        /// The event's position.
        public var position: Int
    }

    /// A fact an app stated about the subject.
    public struct AppFact: Codable, Sendable, Equatable {
        /// The app's bundle id.
        public var app: String
        /// The fact (`eligibility`, …).
        public var fact: String
        /// Its value.
        public var value: String
        /// Its details.
        public var detail: [String]
        /// The event's position.
        public var position: Int
    }

    /// A question to a parent or an age-rating exception, and what became of it.
    public struct Consent: Codable, Sendable, Equatable {
        /// `question` or `exception`.
        public var kind: String
        /// The questionId or exceptionId.
        public var id: String
        /// The app's bundle id.
        @Nullable public var app: String?
        /// The question's topic.
        @Nullable public var topic: String?
        /// The significant change it asks about.
        @Nullable public var changeId: String?
        /// Exceptions: the appleItemID asked for.
        @Nullable public var ratedApp: Int?
        /// `approval`, `denial`, `pending`, …
        public var status: String
        /// The guardian's pseudonym, when disclosed.
        @Nullable public var answeredBy: String?
        /// `message` or `inPerson`.
        @Nullable public var channel: String?
        /// The positions it rests on.
        public var evidence: [Int]
    }
}
