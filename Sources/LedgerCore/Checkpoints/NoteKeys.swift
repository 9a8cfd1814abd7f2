import Crypto
import Foundation

/// What a note key signs, named by the signature-type byte of its text form and key id.
public enum NoteKeyType: UInt8, Sendable, Equatable {
    /// 0x01: a log's own Ed25519 signature of a note's text (C2SP signed-note).
    case ed25519 = 0x01
    /// 0x04: a witness's Ed25519 cosignature of a checkpoint, `cosignature/v1` (C2SP
    /// tlog-cosignature): the signed message adds a header and a timestamp (``Cosignature``).
    case cosignatureV1 = 0x04

    /// How errors and help name it.
    public var title: String {
        switch self {
        case .ed25519: return "a log's note signing key (type 0x01)"
        case .cosignatureV1: return "a witness's cosignature key (type 0x04)"
        }
    }
}

/// The public half of a note signing key: what a verifier needs to check a checkpoint's signature
/// (type ``NoteKeyType/ed25519``) or a witness's cosignature (``NoteKeyType/cosignatureV1``).
///
/// Its text form is the verifier-key encoding of the C2SP signed-note ecosystem (Go's
/// `golang.org/x/mod/sumdb/note`): `<name>+<key id, 8 hex digits>+<base64(type || public key)>`,
/// where the type byte names the algorithm and the key id is ``NoteKeyID/compute(name:publicKey:type:)``.
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
    /// What the key signs.
    public let type: NoteKeyType

    /// A verifier key from its parts; the key id is computed.
    public init(name: String, publicKey: [UInt8], type: NoteKeyType = .ed25519) throws(LedgerError) {
        try NoteKeyID.checkName(name)
        guard publicKey.count == 32 else {
            throw LedgerError(.invalidKey, "an Ed25519 public key is 32 bytes, not \(publicKey.count)")
        }
        self.name = name
        self.publicKey = publicKey
        self.type = type
        self.keyID = NoteKeyID.compute(name: name, publicKey: publicKey, type: type)
    }

    /// Refuses a key of another type than `expected`, saying what was given and where it belongs.
    public func require(_ expected: NoteKeyType, for use: String) throws(LedgerError) {
        guard type == expected else {
            throw LedgerError(.invalidKey, "\(use) needs \(expected.title), but \(name)+\(NoteKeyID.hex(keyID)) is \(type.title)",
                              hint: expected == .ed25519 ? "Use the ledger's key from `consent-ledger signing-key show`."
                                  : "Use the witness's key from `consent-ledger witness create-key` (or `witness show-key`).")
        }
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
        guard let raw = Data(base64Encoded: String(parts[2])), raw.count == 33, let type = raw.first.flatMap(NoteKeyType.init(rawValue:)) else {
            throw LedgerError(.invalidKey, "the verifier key's last part is not base64 of a type byte (0x01, or 0x04 for a witness) "
                              + "followed by a 32-byte Ed25519 public key")
        }
        try self.init(name: String(parts[0]), publicKey: Array(raw.dropFirst()), type: type)
        guard keyID == id else {
            throw LedgerError(.invalidKey, "the verifier key's id \(parts[1]) does not match its name and public key (\(NoteKeyID.hex(keyID)))")
        }
    }

    /// The text form.
    public var text: String {
        "\(name)+\(NoteKeyID.hex(keyID))+\(Data([type.rawValue] + publicKey).base64EncodedString())"
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by this key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}

/// A note signing key: an Ed25519 private key with its name and what it signs (a log's
/// checkpoints, or a witness's cosignatures).
///
/// Its text form (kept in a file only its owner can read) is
/// `PRIVATE+KEY+<name>+<key id, 8 hex digits>+<base64(type || 32-byte seed)>`.
public struct NoteSigningKey: Sendable {
    /// The key's name.
    public let name: String
    /// What the key signs.
    public let type: NoteKeyType
    private let key: Curve25519.Signing.PrivateKey

    /// A new random key named `name`.
    public init(generatingWithName name: String, type: NoteKeyType = .ed25519) throws(LedgerError) {
        try NoteKeyID.checkName(name)
        self.name = name
        self.type = type
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
              let raw = Data(base64Encoded: String(parts[4])), raw.count == 33, let type = raw.first.flatMap(NoteKeyType.init(rawValue:)),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw.dropFirst()) else {
            throw LedgerError(.invalidKey, "the signing key's id or key part is malformed (not 8 hex digits, "
                              + "or not base64 of a type byte, 0x01 or 0x04, and a 32-byte seed)")
        }
        self.name = String(parts[2])
        self.type = type
        self.key = key
        guard verifierKey.keyID == id else {
            throw LedgerError(.invalidKey, "the signing key's id \(parts[3]) does not match its name and key")
        }
    }

    /// The text form (secret).
    public var text: String {
        "PRIVATE+KEY+\(name)+\(NoteKeyID.hex(verifierKey.keyID))+\(Data([type.rawValue] + Array(key.rawRepresentation)).base64EncodedString())"
    }

    /// The matching public key.
    public var verifierKey: NoteVerifierKey {
        // The name was checked on the way in and the key is 32 bytes, so this cannot fail.
        try! NoteVerifierKey(name: name, publicKey: Array(key.publicKey.rawRepresentation), type: type)
    }

    /// The Ed25519 signature of `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        Array(try key.signature(for: message))
    }
}

/// Key ids and names of the signed-note format.
public enum NoteKeyID {
    /// The first four bytes, big-endian, of `SHA-256(name || 0x0A || type || public key)`.
    public static func compute(name: String, publicKey: [UInt8], type: NoteKeyType = .ed25519) -> UInt32 {
        let digest = Array(SHA256.hash(data: Array(name.utf8) + [0x0A, type.rawValue] + publicKey))
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
