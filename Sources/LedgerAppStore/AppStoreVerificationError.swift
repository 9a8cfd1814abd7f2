import LedgerCore
/// Why a signed App Store payload was refused. Every case says what was wrong in words a person
/// can act on; none of them lets the payload be recorded.
public enum AppStoreVerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a compact JWS, or a part that does not decode.
    case malformed(String)
    /// A header algorithm other than ES256 (`none`, `HS256`, … are how JWS forgeries usually start).
    case unsupportedAlgorithm(String)
    /// No usable `x5c` certificate chain in the header.
    case badCertificateChain(String)
    /// A certificate of the chain was not valid at the time that mattered.
    case expired(String)
    /// The chain does not lead to a configured root, or breaks Apple's certificate policy.
    case untrusted(String)
    /// The signature does not verify with the leaf certificate's key: the payload was changed or forged.
    case badSignature
    /// `signedDate` is missing, malformed or in the future.
    case badSignedDate(String)

    public var description: String {
        switch self {
        case .malformed(let why): return "the signed payload is malformed: \(why)"
        case .unsupportedAlgorithm(let alg): return "the JWS algorithm is \(alg); App Store payloads are signed with ES256"
        case .badCertificateChain(let why): return "the JWS certificate chain (x5c) is unusable: \(why)"
        case .expired(let why): return "the signing certificate chain is expired: \(why)"
        case .untrusted(let why): return "the signing certificate chain is not trusted: \(why)"
        case .badSignature: return "the JWS signature does not verify: the payload was altered or not signed by the App Store"
        case .badSignedDate(let why): return "the payload's signedDate is unusable: \(why)"
        }
    }
}
