/// A fact the ledger computes from a payload and stores beside it, under the event's top-level
/// `derived` member. Clients never send derived facts; the ledger never trusts them from a client.
public struct DerivedFactSchema: Sendable, Equatable {
    /// The member name inside `derived` (`legalCategory`).
    public let name: String
    /// What the value may be.
    public let kind: FieldKind
    /// How it is computed, in one or two sentences.
    public let summary: String
    /// How it is computed, as data the database computes it from.
    public let computation: DerivedComputation

    /// Creates a derived fact description.
    public init(_ name: String, _ kind: FieldKind, _ summary: String, computed computation: DerivedComputation) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.computation = computation
    }
}
