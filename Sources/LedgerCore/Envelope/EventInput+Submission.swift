extension EventInput {
    /// The event as a client submits it to the ledger (the HTTP API's NDJSON line): RFC 8785
    /// canonical, with its write condition `expectedVersion` and without the `derived` facts, which
    /// the ledger computes itself and refuses from a client. Parsing these bytes gives back an equal
    /// `EventInput`.
    public var submissionBytes: [UInt8] {
        guard case .object(var members)? = try? JSONParser.parse(canonicalBytes) else {
            preconditionFailure("an EventInput's canonical bytes are always a JSON object")
        }
        members.removeValue(forKey: EventCatalogue.derivedMember)
        switch expectedVersion {
        case .any: break
        case .noStream: members["expectedVersion"] = .string("noStream")
        case .exact(let version): members["expectedVersion"] = .number(Double(version))
        }
        return CanonicalJSON.encode(.object(members))
    }
}
