extension EventEnvelope {
    /// Every top-level key an input event may have. `expectedVersion` is a write condition: it is
    /// checked at append and not stored.
    public static let inputFields: [String] = [
        "eventId", "stream", "type", "schemaVersion", "occurredAt", "subject", "actor", "app",
        "jurisdiction", "correlationId", "causationId", "payload", "expectedVersion",
    ]
    /// Top-level keys the ledger itself sets; a client that sends them is told so.
    public static let ledgerFields: Set<String> = [
        "recordedAt", "position", "streamVersion", "log", "leafHash", "chainHash", "derived",
    ]

    /// Reads and checks the envelope of an input event.
    ///
    /// - Throws: ``LedgerError`` naming the field: `missing-field`, `unknown-field`,
    ///   `invalid-field`.
    public init(validating object: [String: JSONValue]) throws(LedgerError) {
        let allowed = Set(Self.inputFields)
        for key in object.keys.sorted() where !allowed.contains(key) {
            if Self.ledgerFields.contains(key) {
                throw LedgerError(.unknownField, "\(key) is set by the ledger, not by the client", field: key,
                                  hint: "Remove \(key); the ledger assigns it when it appends the event.")
            }
            throw LedgerError(.unknownField, "unknown envelope field", field: key,
                              hint: "Allowed top-level fields: \(Self.inputFields.joined(separator: ", ")). "
                                  + "Event-specific data belongs in payload.")
        }
        let reader = FieldReader(object: object, path: "")
        eventId = try reader.string("eventId", pattern: .uuid)
        stream = try reader.string("stream", pattern: .stream)
        type = try reader.string("type", pattern: .typeName)
        schemaVersion = try reader.positiveInteger("schemaVersion", max: 999_999)
        occurredAt = try reader.timestamp("occurredAt")
        subject = try reader.optionalString("subject", pattern: .pseudonym)
        correlationId = try reader.optionalString("correlationId", pattern: .identifier)
        causationId = try reader.optionalString("causationId", pattern: .identifier)

        let actorReader = try reader.object("actor", allowed: ["kind", "id"])
        actor = Actor(kind: try actorReader.string("kind", oneOf: Actor.kinds),
                      id: try actorReader.optionalString("id", pattern: .pseudonym))

        if let appReader = try reader.optionalObject("app", allowed: AppInfo.memberSet) {
            app = AppInfo(bundleId: try appReader.string("bundleId", pattern: .bundleId),
                          appVersion: try appReader.optionalString("appVersion", pattern: .version),
                          platform: try appReader.optionalString("platform", oneOf: AppInfo.platforms),
                          osVersion: try appReader.optionalString("osVersion", pattern: .version),
                          environment: try appReader.optionalString("environment", oneOf: AppInfo.environments),
                          originalAppVersion: try appReader.optionalString("originalAppVersion", pattern: .version))
        } else {
            app = nil
        }
        if let jReader = try reader.optionalObject("jurisdiction", allowed: ["code", "basis"]) {
            jurisdiction = Jurisdiction(code: try jReader.string("code", pattern: .jurisdiction),
                                        basis: try jReader.string("basis", oneOf: Jurisdiction.bases))
        } else {
            jurisdiction = nil
        }
        _ = try reader.object("payload", allowed: nil)
    }
}
