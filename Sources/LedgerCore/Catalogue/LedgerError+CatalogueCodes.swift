extension LedgerError.Code {
    // MARK: Event catalogue
    /// An event `type` the catalogue does not define (docs/design/events.md lists the types).
    public static let unknownEventType = LedgerError.Code("unknown-event-type", .badInput)
    /// A `schemaVersion` the event's type does not have (or no longer reads).
    public static let unsupportedSchemaVersion = LedgerError.Code("unsupported-schema-version", .badInput)
}
