import LedgerCore
import Foundation

/// A JSON Web Signature in compact serialization (RFC 7515 §7.1), as the App Store signs its
/// notifications and transactions: `base64url(header) "." base64url(payload) "." base64url(signature)`.
///
/// Parsing checks only the form; ``AppStoreSignedDataVerifier`` checks the signature and the chain.
public struct CompactJWS: Sendable {
    /// The protected header, parsed.
    public let header: [String: JSONValue]
    /// The payload, parsed (the App Store's payloads are JSON objects).
    public let payload: [String: JSONValue]
    /// The signature's bytes.
    public let signature: [UInt8]
    /// The bytes the signature covers: the first two parts as sent, with their dot (RFC 7515 §5.2).
    public let signingInput: [UInt8]

    /// Parses `text`; the error says which part is malformed.
    public init(_ text: String) throws(AppStoreVerificationError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed("a signed payload has three base64url parts separated by dots; this has \(parts.count)")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), case .object(let header)? = try? JSONParser.parse(headerBytes) else {
            throw .malformed("the JWS header is not base64url-encoded JSON")
        }
        guard let payloadBytes = Base64URL.decode(parts[1]), case .object(let payload)? = try? JSONParser.parse(payloadBytes) else {
            throw .malformed("the JWS payload is not a base64url-encoded JSON object")
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            throw .malformed("the JWS signature is not base64url")
        }
        self.header = header
        self.payload = payload
        self.signature = signature
        signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    }
}
