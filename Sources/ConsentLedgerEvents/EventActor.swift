import LedgerCore

/// Who caused an event (the envelope's `actor`; docs/envelope.md says which to name when).
public struct EventActor: Sendable, Equatable {
    /// The actor kinds an app backend may name. `appStore`, `playStore` and `ledger` are not here:
    /// the ledger records those itself (a forwarded App Store notification, erasure, retention).
    public enum Kind: String, Sendable, CaseIterable {
        /// The app, on its own initiative (a request, a gate).
        case app
        /// A parent or guardian (a declared range, an answer, a decision).
        case guardian
        /// The child or person the event is about.
        case subject
        /// A person at the app's company (support, compliance).
        case `operator`
        /// The app's backend or another system, unattended.
        case system
    }

    /// The kind.
    public var kind: Kind
    /// A pseudonymous id (`g_…` for a guardian), when there is one: never a name or e-mail address.
    public var id: String?

    /// An actor.
    public init(_ kind: Kind, id: String? = nil) {
        self.kind = kind
        self.id = id
    }

    /// The app.
    public static let app = EventActor(.app)
    /// A guardian not identified by the platform.
    public static let guardian = EventActor(.guardian)
    /// The subject.
    public static let subject = EventActor(.subject)
    /// The backend, unattended.
    public static let system = EventActor(.system)

    /// The envelope's `actor` member.
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["kind": .string(kind.rawValue)]
        if let id { members["id"] = .string(id) }
        return .object(members)
    }
}
