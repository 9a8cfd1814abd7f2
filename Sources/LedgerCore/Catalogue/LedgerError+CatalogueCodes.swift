extension LedgerError.Code {
    // MARK: Event catalogue
    /// An event `type` the catalogue does not define (docs/design/events.md lists the types).
    public static let unknownEventType = LedgerError.Code("unknown-event-type", .badInput)
    /// A `schemaVersion` the event's type does not have (or no longer reads).
    public static let unsupportedSchemaVersion = LedgerError.Code("unsupported-schema-version", .badInput)
    /// An event its type does not let this route or this actor append: the ledger's own facts
    /// come only from their operations, App Store facts only from the verified notification route
    /// (decision 0056). Answered with 403.
    public static let appendNotPermitted = LedgerError.Code("append-not-permitted", .forbidden)
}
