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
}

extension JSONParser {
    /// Parses bytes this process produced itself (canonical JSON), as a LedgerError if it fails.
    static func parseValidated(_ bytes: [UInt8]) throws(LedgerError) -> JSONValue {
        do { return try parse(bytes) } catch { throw LedgerError(.invalidJSON, "internal: \(error)") }
    }
}
