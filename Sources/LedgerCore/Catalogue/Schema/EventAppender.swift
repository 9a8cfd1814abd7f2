/// Who may append an event of a type: by which route, and as which actors (`actor.kind`).
///
/// Most types take the ordinary writers' actors through ``AppendRoute/append``
/// (``EventAppender/ordinary``); the ledger's own facts name their operation, and an App Store
/// fact the verified notification route:
/// ```swift
/// appenders: [.init(.erase, actors: ["ledger", "operator"])]
/// ```
public struct EventAppender: Sendable, Equatable {
    /// The route.
    public let route: AppendRoute
    /// The actor kinds the route may record the event with, sorted.
    public let actors: [String]

    /// `route` with `actors`.
    public init(_ route: AppendRoute, actors: Set<String>) {
        precondition(actors.isSubset(of: EventEnvelope.Actor.kinds), "unknown actor kinds \(actors.subtracting(EventEnvelope.Actor.kinds))")
        self.route = route
        self.actors = actors.sorted()
    }

    /// The actors only a route of the ledger's own may record: `ledger` (the ledger itself) and
    /// `appStore` (a signed notification the ledger verified).
    public static let vouchedActors: Set<String> = ["ledger", "appStore"]

    /// Every actor an ordinary writer may name: all but ``vouchedActors``.
    public static let ordinaryActors: Set<String> = EventEnvelope.Actor.kinds.subtracting(vouchedActors)

    /// What most types allow: the ordinary writers, as any ordinary actor.
    public static let ordinary: [EventAppender] = [EventAppender(.append, actors: ordinaryActors)]
}
