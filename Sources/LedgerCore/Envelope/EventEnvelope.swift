/// The envelope every event carries (docs/architecture.md, docs/design/events.md): identity, stream, type,
/// clocks, who did it, from which app, and where.
///
/// An NDJSON line is one envelope with its `payload`:
/// ```json
/// {"eventId":"0b7c…","stream":"subject-p_4f1c","type":"AgeRangeShared","schemaVersion":1,
///  "occurredAt":"2026-11-22T10:15:00Z","subject":"p_4f1c","actor":{"kind":"app"},
///  "app":{"bundleId":"com.example.kids","appVersion":"2.3.1","platform":"iOS","osVersion":"26.1"},
///  "jurisdiction":{"code":"US-TX","basis":"asserted"},"payload":{"lowerBound":13,"upperBound":15}}
/// ```
/// `recordedAt` (the ledger's clock), the log position and the stream version are not part of the
/// input: the ledger assigns them and seals them into the record it hashes.
public struct EventEnvelope: Sendable, Equatable {
    /// Unique per log; a lowercase UUID.
    public var eventId: String
    /// The stream inside the log: `subject-<pseudonym>`, `question-<uuid>`, `exception-<id>`, ….
    public var stream: String
    /// The event type, as docs/design/events.md names it (`AgeRangeShared`).
    public var type: String
    /// The version of the type's payload schema, from 1.
    public var schemaVersion: Int
    /// When it happened, by the device's (or reporting system's) clock; RFC 3339.
    public var occurredAt: String
    /// The subject's pseudonym, when the event is about one person.
    public var subject: String?
    /// Who caused it.
    public var actor: Actor
    /// The app that reported it.
    public var app: AppInfo?
    /// The jurisdiction, when known, and on what basis.
    public var jurisdiction: Jurisdiction?
    /// Groups the events of one flow (a question and its answer).
    public var correlationId: String?
    /// The event that caused this one.
    public var causationId: String?

    /// Who caused an event.
    public struct Actor: Sendable, Equatable {
        /// `app`, `guardian`, `subject`, `operator`, `appStore`, `playStore`, `system` or `ledger`.
        public var kind: String
        /// A pseudonymous id of the actor, when there is one (never a name or e-mail address).
        public var id: String?
        /// The allowed kinds.
        public static let kinds: Set<String> = [
            "app", "guardian", "subject", "operator", "appStore", "playStore", "system", "ledger",
        ]
    }

    /// The app that reported an event.
    public struct AppInfo: Sendable, Equatable {
        /// The bundle id (`com.example.kids`) or package name.
        public var bundleId: String
        /// The app's version string.
        public var appVersion: String?
        /// `iOS`, `iPadOS`, `macOS`, `visionOS`, `watchOS`, `tvOS`, `android`, `web` or `server`.
        public var platform: String?
        /// The operating system's version.
        public var osVersion: String?
        /// The build the event came from: `production` (installed from the store), `sandbox` (a
        /// store test build: TestFlight, the App Store sandbox, a Play test track) or `development`
        /// (run from Xcode or Android Studio, StoreKit's `xcode` environment). Nil: not said. Lets a
        /// report tell real evidence from testing on every event, not only on ConsentRescinded.
        public var environment: String?
        /// The version of the app the person first installed (StoreKit's
        /// `AppTransaction.originalAppVersion`; on iOS the build number `CFBundleVersion`), when the
        /// app read it. The rules take the version the subject first used the app at from it: a
        /// significant change introduced in or before that version was part of the app when the
        /// subject got it (decision 0064). Nil: not said.
        public var originalAppVersion: String?
        /// The allowed platforms.
        public static let platforms: Set<String> = [
            "iOS", "iPadOS", "macOS", "visionOS", "watchOS", "tvOS", "android", "web", "server",
        ]
        /// The allowed environments.
        public static let environments: Set<String> = ["production", "sandbox", "development"]
        /// The environments of tests and development builds: their events are stored, verified and
        /// replayed, but change no state and no regulator figure (decision 0068).
        public static let testEnvironments: Set<String> = ["sandbox", "development"]

        /// An app stamp.
        public init(bundleId: String, appVersion: String? = nil, platform: String? = nil, osVersion: String? = nil,
                    environment: String? = nil, originalAppVersion: String? = nil) {
            self.bundleId = bundleId
            self.appVersion = appVersion
            self.platform = platform
            self.osVersion = osVersion
            self.environment = environment
            self.originalAppVersion = originalAppVersion
        }

        /// The members an event's `app` may have.
        public static let members = ["bundleId", "appVersion", "platform", "osVersion", "environment", "originalAppVersion"]
        /// ``members`` as a set, for the parser.
        static let memberSet = Set(members)
    }

    /// Where an event's legal rules come from.
    public struct Jurisdiction: Sendable, Equatable {
        /// ISO 3166-1 alpha-2 country, optionally with an ISO 3166-2 subdivision (`US-TX`), or `EU`.
        public var code: String
        /// `asserted` (the app says so; DeclaredAgeRange returns no region), `storefront`
        /// (the App Store or Play storefront) or `inferred`.
        public var basis: String
        /// The allowed bases.
        public static let bases: Set<String> = ["asserted", "storefront", "inferred"]

        /// Whether `code` is a jurisdiction code as events carry it (`US`, `US-TX`, `GB`, `EU`).
        public static func isValidCode(_ code: String) -> Bool {
            FieldReader.Pattern.jurisdiction.matches(code)
        }
    }
}
