/// What the ledger knows of an event beside its payload when it derives the event's facts
/// (``EventPayload/derivedFacts(in:)``): today, the age of majority of the event's jurisdiction.
///
/// Derived facts are computed once, at append, and stored in the hashed record, so a later change
/// of a jurisdiction's law changes the facts of new events only: the record says what the ledger
/// concluded when it stored the event.
public struct DerivationContext: Sendable, Equatable {
    /// The age of majority that applies (``AgeOfMajority/of(jurisdiction:)``).
    public let ageOfMajority: Int

    /// The context of an event whose envelope names `jurisdiction` (`US-AL`; nil when it names none).
    public init(jurisdiction: String?) {
        ageOfMajority = AgeOfMajority.of(jurisdiction: jurisdiction)
    }

    /// The context where no jurisdiction changes anything: the age of majority is 18. For examples
    /// and documents, never for an event that names its jurisdiction.
    public static let standard = DerivationContext(jurisdiction: nil)
}
