extension EventInput {
    /// The same event with the personal-data fields at `paths` (dotted, such as
    /// `payload.reason`) sealed under the subject's key, and its canonical bytes made anew.
    ///
    /// - Throws: `invalid-request` when the event has personal data but no `subject` to seal it to.
    public func sealing(paths: [String], key: [UInt8], log: String) throws(LedgerError) -> EventInput {
        guard let subject = envelope.subject else {
            throw LedgerError(.missingField, "the event carries personal data (\(paths.joined(separator: ", "))) but no subject to encrypt it for",
                              field: "subject", hint: "Set subject to the pseudonym of the person the data is about.")
        }
        var event = try JSONParser.parseValidated(canonicalBytes)
        for path in paths {
            let context = PersonalDataCipher.Context(log: log, subject: subject, eventId: envelope.eventId, path: path)
            event = try event.updating(path: path.split(separator: ".").map(String.init)[...]) { value throws(LedgerError) in
                value == .null || PersonalDataCipher.isSealed(value) ? value : try PersonalDataCipher.seal(value, key: key, context: context)
            }
        }
        return try EventInput(validated: envelope, expectedVersion: expectedVersion, catalogued: catalogued, event: event)
    }

    /// This event as it was stored before its subject was erased, to answer a retry of its batch:
    /// `stored` is the event of the stored record with this event id. When the two are the same
    /// everywhere but in the personal-data fields at `paths` (null or not, present or not alike),
    /// the result is this event with the stored (sealed) fields, byte for byte as it was appended,
    /// so the retry's digest and default idempotency key are the batch's own. Nil when they differ
    /// anywhere else. The personal fields themselves can no longer be compared: the key that
    /// sealed them is destroyed, which is what erasure means.
    public func asStoredBeforeErasure(_ stored: JSONValue, paths: [String]) throws(LedgerError) -> EventInput? {
        func masked(_ event: JSONValue) throws(LedgerError) -> [UInt8] {
            var event = event
            for path in paths {
                event = try event.updating(path: path.split(separator: ".").map(String.init)[...]) { value throws(LedgerError) in
                    value == .null ? value : .string("personal data")
                }
            }
            return CanonicalJSON.encode(event)
        }
        guard try masked(JSONParser.parseValidated(canonicalBytes)) == masked(stored) else { return nil }
        return try EventInput(validated: envelope, expectedVersion: expectedVersion, catalogued: catalogued, event: stored)
    }
}

extension JSONParser {
    /// Parses bytes this process produced itself (canonical JSON), as a LedgerError if it fails.
    static func parseValidated(_ bytes: [UInt8]) throws(LedgerError) -> JSONValue {
        do { return try parse(bytes) } catch { throw LedgerError(.invalidJSON, "internal: \(error)") }
    }
}
