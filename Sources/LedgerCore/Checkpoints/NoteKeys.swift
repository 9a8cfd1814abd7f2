import Crypto
import Foundation

/// The public half of a note signing key: what a verifier needs to check a checkpoint's signature.
///
/// Its text form is the verifier-key encoding of the C2SP signed-note ecosystem (Go's
/// `golang.org/x/mod/sumdb/note`): `<name>+<key id, 8 hex digits>+<base64(0x01 || public key)>`,
/// where 0x01 names the Ed25519 algorithm and the key id is ``NoteKeyID/compute(name:publicKey:)``.
///
/// ```swift
/// let key = try NoteVerifierKey(text: "consent-ledger.local+1a2b3c4d+AR...")
/// ```
public struct NoteVerifierKey: Sendable, Equatable {
    /// The key's name, which every signature line repeats.
    public let name: String
    /// The 32-bit key id.
    public let keyID: UInt32
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]

    /// A verifier key from its parts; the key id is computed.
    public init(name: String, publicKey: [UInt8]) throws(LedgerError) {
        try NoteKeyID.checkName(name)
        guard publicKey.count == 32 else {
            throw LedgerError(.invalidKey, "an Ed25519 public key is 32 bytes, not \(publicKey.count)")
        }
        self.name = name
        self.publicKey = publicKey
        self.keyID = NoteKeyID.compute(name: name, publicKey: publicKey)
    }

    /// Parses the text form (surrounding white space is ignored), checking that the key id
    /// matches the name and key.
    public init(text: String) throws(LedgerError) {
        // Base64 may itself hold '+': only the first two separate parts.
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "+", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw LedgerError(.invalidKey, "a verifier key is NAME+KEYID+BASE64 (three parts joined by '+'), this has \(parts.count)",
                              hint: "Use the text printed by `consent-ledger signing-key show`.")
        }
        guard let id = NoteKeyID.parseHex(String(parts[1])) else {
            throw LedgerError(.invalidKey, "the verifier key's id '\(parts[1])' is not 8 hex digits")
        }
        guard let raw = Data(base64Encoded: String(parts[2])), raw.count == 33, raw.first == NoteKeyID.ed25519Algorithm else {
            throw LedgerError(.invalidKey, "the verifier key's last part is not base64 of 0x01 followed by a 32-byte Ed25519 public key")
        }
        try self.init(name: String(parts[0]), publicKey: Array(raw.dropFirst()))
        guard keyID == id else {
            throw LedgerError(.invalidKey, "the verifier key's id \(parts[1]) does not match its name and public key (\(NoteKeyID.hex(keyID)))")
        }
    }

    /// The text form.
    public var text: String {
        "\(name)+\(NoteKeyID.hex(keyID))+\(Data([NoteKeyID.ed25519Algorithm] + publicKey).base64EncodedString())"
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by this key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}

/// A note signing key: an Ed25519 private key with its name.
///
/// Its text form (kept in a file only its owner can read) is
/// `PRIVATE+KEY+<name>+<key id, 8 hex digits>+<base64(0x01 || 32-byte seed)>`.
public struct NoteSigningKey: Sendable {
    /// The key's name.
    public let name: String
    private let key: Curve25519.Signing.PrivateKey

    /// A new random key named `name`.
    public init(generatingWithName name: String) throws(LedgerError) {
        try NoteKeyID.checkName(name)
        self.name = name
        self.key = Curve25519.Signing.PrivateKey()
    }

    /// Parses the text form, checking the key id.
    public init(text: String) throws(LedgerError) {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "+", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "PRIVATE", parts[1] == "KEY" else {
            throw LedgerError(.invalidKey, "a signing key is PRIVATE+KEY+NAME+KEYID+BASE64",
                              hint: "Create one with `consent-ledger signing-key create`.")
        }
        try NoteKeyID.checkName(String(parts[2]))
        guard let id = NoteKeyID.parseHex(String(parts[3])),
              let raw = Data(base64Encoded: String(parts[4])), raw.count == 33, raw.first == NoteKeyID.ed25519Algorithm,
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw.dropFirst()) else {
            throw LedgerError(.invalidKey, "the signing key's id or key part is malformed (not 8 hex digits, or not base64 of 0x01 and a 32-byte seed)")
        }
        self.name = String(parts[2])
        self.key = key
        guard verifierKey.keyID == id else {
            throw LedgerError(.invalidKey, "the signing key's id \(parts[3]) does not match its name and key")
        }
    }

    /// The text form (secret).
    public var text: String {
        "PRIVATE+KEY+\(name)+\(NoteKeyID.hex(verifierKey.keyID))+\(Data([NoteKeyID.ed25519Algorithm] + Array(key.rawRepresentation)).base64EncodedString())"
    }

    /// The matching public key.
    public var verifierKey: NoteVerifierKey {
        // The name was checked on the way in and the key is 32 bytes, so this cannot fail.
        try! NoteVerifierKey(name: name, publicKey: Array(key.publicKey.rawRepresentation))
    }

    /// The Ed25519 signature of `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        Array(try key.signature(for: message))
    }
}

/// Key ids and names of the signed-note format.
public enum NoteKeyID {
    /// The algorithm byte of Ed25519 keys.
    public static let ed25519Algorithm: UInt8 = 0x01

    /// The first four bytes, big-endian, of `SHA-256(name || 0x0A || 0x01 || public key)`.
    public static func compute(name: String, publicKey: [UInt8]) -> UInt32 {
        let digest = Array(SHA256.hash(data: Array(name.utf8) + [0x0A, ed25519Algorithm] + publicKey))
        return digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A key id as 8 lowercase hex digits.
    public static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Parses exactly 8 hex digits.
    static func parseHex(_ text: String) -> UInt32? {
        guard text.utf8.count == 8, text.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(text, radix: 16)
    }

    /// A key name is 1 to 100 characters with no white space and no '+'.
    public static func checkName(_ name: String) throws(LedgerError) {
        guard !name.isEmpty, name.count <= 100, !name.contains("+"),
              !name.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) }) else {
            throw LedgerError(.invalidKey, "key name '\(name)' is not allowed: 1 to 100 characters, no white space and no '+'",
                              hint: "For example --name ledger.example.com")
        }
    }
}
