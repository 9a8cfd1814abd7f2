/// Shows a stored event to a reader: sealed personal-data fields opened with the subject's key, or
/// shown as `{"$erased":true}` once the key has been destroyed. Everything else is as stored.
public enum PersonalDataView {
    /// What is known of a subject's key.
    public enum KeyState: Sendable, Equatable {
        /// The key: sealed fields can be opened.
        case available([UInt8])
        /// The subject was erased: sealed fields are gone for good.
        case erased
        /// The reader may not see keys (or there is none): sealed fields stay sealed.
        case unknown
    }

    /// The event with its sealed fields opened or marked erased.
    ///
    /// - Throws: `integrity-failure` when a sealed field does not open with the subject's key.
    public static func reveal(event: JSONValue, log: String, key: KeyState) throws(LedgerError) -> JSONValue {
        guard case .object(let members) = event,
              case .string(let subject)? = members["subject"], case .string(let eventId)? = members["eventId"]
        else { return event }
        return try event.replacing(where: PersonalDataCipher.isSealed) { path, sealed throws(LedgerError) in
            switch key {
            case .available(let bytes):
                return try PersonalDataCipher.open(sealed, key: bytes,
                                                   context: .init(log: log, subject: subject, eventId: eventId,
                                                                 path: JSONValue.genericPath(path)))
            case .erased:
                return PersonalDataCipher.erasedMarker
            case .unknown:
                return sealed
            }
        }
    }
}
