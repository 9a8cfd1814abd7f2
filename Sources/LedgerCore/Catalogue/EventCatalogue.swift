/// The event catalogue: every event type of docs/design/events.md, its schema, and the one entry point that
/// checks a payload at append.
///
/// ```swift
/// let checked = try EventCatalogue.validate(type: "AgeRangeShared", schemaVersion: 2,
///                                           payload: ["lowerBound": 13, "upperBound": 15,
///                                                     "ageRangeDeclaration": "guardianDeclared"],
///                                           context: DerivationContext(jurisdiction: "US-TX"))
/// checked.derived          // ["legalCategory": "13to15", "verifiedAdult": false]
/// checked.personalFields   // []
/// ```
public enum EventCatalogue {
    /// The top-level event member under which the ledger stores derived facts. Clients never send it.
    public static let derivedMember = "derived"

    /// Every event type's schema, in docs/design/events.md's order.
    public static let schemas: [EventSchema] = [
        // Age range (DeclaredAgeRange)
        EligibilityChecked.schema,
        AgeRangeRequested.schema,
        AgeRangeShared.schema,
        AgeRangeDeclined.schema,
        AgeRangeRequestFailed.schema,
        // Significant changes and consent
        SignificantChangeDeclared.schema,
        SignificantChangeAcknowledged.schema,
        PermissionQuestionSent.schema,
        PermissionQuestionFailed.schema,
        ParentalAnswerReceived.schema,
        QuestionExpired.schema,
        ConsentRescinded.schema,
        AccessGateApplied.schema,
        // Age-rating exceptions (MarketplaceKit)
        DeviceRatingLimitObserved.schema,
        InstallAttempted.schema,
        AgeExceptionRequested.schema,
        AgeExceptionDecided.schema,
        ApproveInPersonFailed.schema,
        ApproveInPersonPresented.schema,
        // App store acts
        StoreConsentStatusReceived.schema,
        SignificantChangeNotifiedToStore.schema,
        // Other platforms and people
        PlayAgeSignalReceived.schema,
        AgeVerificationCompleted.schema,
        OperatorDecision.schema,
        // The ledger's own facts
        RetentionApplied.schema,
        SubjectErased.schema,
        WithdrawalDelivered.schema,
    ]

    private static let byType: [String: EventSchema] = Dictionary(uniqueKeysWithValues: schemas.map { ($0.type, $0) })

    /// The type names, in docs/design/events.md's order.
    public static var eventTypes: [String] { schemas.map(\.type) }

    /// The schema of `type`, or `nil` for a type the catalogue does not define.
    public static func schema(for type: String) -> EventSchema? {
        guard let schema = byType[type], schema.type.unicodeScalars.elementsEqual(type.unicodeScalars) else { return nil }
        return schema
    }

    /// JSON paths of `type`'s personal-data fields in its current version (`payload.reason`);
    /// empty for an unknown type. Arrays appear as `[]`.
    public static func personalFields(type: String) -> [String] {
        schema(for: type)?.personalFields ?? []
    }

    /// JSON paths of the personal-data fields of `type` at `schemaVersion` (which may be older);
    /// empty for an unknown type or version.
    public static func personalFields(type: String, schemaVersion: Int) -> [String] {
        schema(for: type)?.fields(version: schemaVersion)?.personalPaths(prefix: "payload") ?? []
    }

    /// Checks the payload of an event of `type` at `schemaVersion`, upcasts an older version,
    /// decodes it and derives the ledger's facts in `context` (the event's jurisdiction).
    ///
    /// - Throws: ``LedgerError`` with `field` set to the JSON path of the problem:
    ///   `unknown-event-type` (field `type`; the hint lists the known types),
    ///   `unsupported-schema-version` (field `schemaVersion`), `missing-field`, `unknown-field`,
    ///   `invalid-field` (wrong JSON kind, value out of range, value not allowed, a rule broken).
    public static func validate(type: String, schemaVersion: Int, payload: JSONValue,
                                context: DerivationContext) throws(LedgerError) -> CataloguedPayload {
        guard let schema = schema(for: type) else {
            throw LedgerError(.unknownEventType, "unknown event type \(CanonicalJSON.encodeString(.string(type)))", field: "type",
                              hint: "Known types: \(eventTypes.joined(separator: ", ")).")
        }
        let current: JSONValue
        if schemaVersion == schema.version {
            _ = try PayloadValidator.check(payload, fields: schema.fields, rules: schema.rules)
            current = payload
        } else if let index = schema.olderVersions.firstIndex(where: { $0.version == schemaVersion }) {
            let older = schema.olderVersions[index]
            var members: [String: JSONValue]
            do {
                members = try PayloadValidator.check(payload, fields: older.fields, rules: older.rules)
            } catch {
                throw pointingToCurrentVersion(error, schema: schema)
            }
            for step in schema.olderVersions[index...] { members = step.upcast(members) }
            current = .object(members)
            do {
                _ = try PayloadValidator.check(current, fields: schema.fields, rules: schema.rules)
            } catch {
                throw LedgerError(.invalidField,
                                  "this version-\(schemaVersion) payload does not upcast to version \(schema.version): \(error.message)",
                                  field: error.field, hint: error.hint)
            }
        } else {
            let versions = schema.schemaVersions.map(String.init).joined(separator: ", ")
            throw LedgerError(.unsupportedSchemaVersion, "\(type) has no schema version \(schemaVersion)", field: "schemaVersion",
                              hint: "\(type) reads schema version\(schema.schemaVersions.count == 1 ? "" : "s") \(versions); "
                                  + "new events use \(schema.version).")
        }
        let typed: any EventPayload
        do {
            typed = try schema.decode(current)
        } catch {
            throw LedgerError(.invalidField, "the payload does not decode as \(type) version \(schema.version): \(error)",
                              field: "payload", hint: "Report this: a payload that passed validation should decode.")
        }
        return CataloguedPayload(type: type, schemaVersion: schemaVersion, payload: typed,
                                 derived: typed.derivedFacts(in: context),
                                 personalFields: schema.fields(version: schemaVersion)?.personalPaths(prefix: "payload") ?? [])
    }

    /// An older version's unknown-field error, with a hint when the field belongs to the current version.
    private static func pointingToCurrentVersion(_ error: LedgerError, schema: EventSchema) -> LedgerError {
        guard error.code == .unknownField, let path = error.field, path.hasPrefix("payload.") else { return error }
        let name = String(path.dropFirst("payload.".count))
        guard schema.fields.field(named: name) != nil else { return error }
        var pointed = error
        pointed.hint = (error.hint.map { $0 + " " } ?? "")
            + "\(name) is a field of \(schema.type) version \(schema.version): send \"schemaVersion\": \(schema.version)."
        return pointed
    }
}
