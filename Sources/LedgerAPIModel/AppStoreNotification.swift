import LedgerCore

extension APIModel {
    /// The body of `POST …/app-store/notifications` (`AppStoreNotificationRequest`): Apple's
    /// `signedPayload` exactly as sent, the subject it concerns and what the app did.
    public struct AppStoreNotificationRequest: Codable, Sendable, Equatable {
        /// The notification's JWS, unchanged.
        public var signedPayload: String
        /// The child's pseudonym (a notification names an app transaction, never a child).
        public var subject: String
        /// What the app did (`ConsentRescinded.enforcementAction`).
        public var enforcementAction: String
        /// Where the child is, when known (`{"code": "US-TX", "basis": "storefront"}`).
        public var jurisdiction: JSONValue?

        /// A request from its parts.
        public init(signedPayload: String, subject: String, enforcementAction: String, jurisdiction: JSONValue? = nil) {
            self.signedPayload = signedPayload
            self.subject = subject
            self.enforcementAction = enforcementAction
            self.jurisdiction = jurisdiction
        }
    }

    /// The answer to a forwarded notification (`AppStoreNotificationResult`): the
    /// `ConsentRescinded` event it became (200 and `idempotentReplay` for Apple's retries).
    public struct AppStoreNotificationResult: Codable, Sendable, Equatable {
        /// The log.
        public var log: String
        /// True when this notification had been recorded already.
        public var idempotentReplay: Bool
        /// The notification's UUID (also the event's id).
        public var notificationUUID: String
        /// The event's position.
        public var position: Int64
        /// The event's id.
        public var eventId: String
        /// The event's stream.
        public var stream: String
        /// The stream's version after it.
        public var streamVersion: Int64

        /// A result from its parts.
        public init(log: String, idempotentReplay: Bool, notificationUUID: String, event: AppendResult.Event) {
            self.log = log
            self.idempotentReplay = idempotentReplay
            self.notificationUUID = notificationUUID
            self.position = event.position
            self.eventId = event.eventId
            self.stream = event.stream
            self.streamVersion = event.streamVersion
        }
    }
}
