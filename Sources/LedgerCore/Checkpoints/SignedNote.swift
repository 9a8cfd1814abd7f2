import Foundation

/// A C2SP signed note: a UTF-8 text body that ends in a newline, a blank line, then one or more
/// signature lines `— <key name> <base64(4-byte key id || signature)>`.
///
/// ```swift
/// let note = try SignedNote.sign(body: checkpoint.body, with: key)
/// let parsed = try SignedNote(text: note)
/// try parsed.verify(with: verifierKey)
/// ```
public struct SignedNote: Sendable, Equatable {
    /// One signature line.
    public struct Signature: Sendable, Equatable {
        /// The key name the line names.
        public var keyName: String
        /// The key id of its first four bytes.
        public var keyID: UInt32
        /// The signature after the key id.
        public var signature: [UInt8]

        /// A signature line from its parts.
        public init(keyName: String, keyID: UInt32, signature: [UInt8]) {
            self.keyName = keyName
            self.keyID = keyID
            self.signature = signature
        }
    }

    /// The signed text, ending in a newline.
    public var body: String
    /// The signature lines, in order.
    public var signatures: [Signature]

    /// The prefix of every signature line: U+2014 EM DASH and a space.
    public static let signaturePrefix = "\u{2014} "

    /// Parses a note. Throws ``LedgerError`` (``LedgerError/Code/checkpointRefused``) naming
    /// what is malformed.
    public init(text: String) throws(LedgerError) {
        guard let split = text.range(of: "\n\n", options: .backwards) else {
            throw Self.malformed("it has no blank line between the text and the signatures")
        }
        let body = String(text[..<split.lowerBound]) + "\n"
        let tail = text[split.upperBound...]
        guard tail.hasSuffix("\n") else { throw Self.malformed("its last signature line does not end in a newline") }
        var signatures: [Signature] = []
        for line in tail.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix(Self.signaturePrefix) else {
                throw Self.malformed("the signature line '\(line)' does not start with an em dash and a space")
            }
            let fields = line.dropFirst(Self.signaturePrefix.count).split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2, !fields[0].isEmpty,
                  let raw = Data(base64Encoded: String(fields[1])), raw.count > 4 else {
                throw Self.malformed("the signature line '\(line)' is not '— NAME BASE64' with at least 5 bytes of base64")
            }
            let bytes = Array(raw)
            signatures.append(Signature(keyName: String(fields[0]),
                                        keyID: bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) },
                                        signature: Array(bytes.dropFirst(4))))
        }
        guard !signatures.isEmpty else { throw Self.malformed("it has no signature line") }
        self.body = body
        self.signatures = signatures
    }

    /// The note's text: body, blank line, signature lines.
    public var text: String {
        body + "\n" + signatures.map(Self.line).joined()
    }

    /// Signs `body` (which must end in a newline and hold no blank line) with `key`, a log's
    /// note signing key (a witness's key cosigns instead: ``Cosignature``).
    public static func sign(body: String, with key: NoteSigningKey) throws -> SignedNote {
        try key.verifierKey.require(.ed25519, for: "signing a checkpoint")
        guard body.hasSuffix("\n"), !body.contains("\n\n") else {
            throw LedgerError(.invalidRequest, "a note's text must end in a newline and hold no blank line")
        }
        let verifier = key.verifierKey
        let signature = try key.sign(Array(body.utf8))
        return SignedNote(body: body, signatures: [Signature(keyName: verifier.name, keyID: verifier.keyID, signature: signature)])
    }

    private init(body: String, signatures: [Signature]) {
        self.body = body
        self.signatures = signatures
    }

    /// The note with `signature` added after its signature lines, in place of any line by the
    /// same key (name and key id).
    public func adding(_ signature: Signature) -> SignedNote {
        SignedNote(body: body, signatures: signatures.filter { !($0.keyName == signature.keyName && $0.keyID == signature.keyID) } + [signature])
    }

    /// One signature line's text, `— <key name> <base64(key id || signature)>` and a newline.
    public static func line(_ signature: Signature) -> String {
        let idBytes = (0..<4).map { UInt8(truncatingIfNeeded: signature.keyID >> (24 - 8 * $0)) }
        return signaturePrefix + signature.keyName + " " + Data(idBytes + signature.signature).base64EncodedString() + "\n"
    }

    /// Checks that a signature line by `key` (same name and key id) is present and that every such
    /// line verifies.
    public func verify(with key: NoteVerifierKey) throws(LedgerError) {
        try key.require(.ed25519, for: "checking a log's signature")
        let lines = signatures.filter { $0.keyName == key.name && $0.keyID == key.keyID }
        guard !lines.isEmpty else {
            let names = signatures.map { "\($0.keyName) (key \(NoteKeyID.hex($0.keyID)))" }.joined(separator: ", ")
            throw LedgerError(.checkpointRefused,
                              "the note is not signed by \(key.name) (key \(NoteKeyID.hex(key.keyID))); it is signed by \(names)")
        }
        // Every line that claims this key must verify, not just one of them.
        guard lines.allSatisfy({ key.isValidSignature($0.signature, for: Array(body.utf8)) }) else {
            throw LedgerError(.checkpointRefused, "the signature by \(key.name) (key \(NoteKeyID.hex(key.keyID))) does not verify: the note was changed or forged")
        }
    }

    private static func malformed(_ what: String) -> LedgerError {
        LedgerError(.checkpointRefused, "not a signed note: \(what)")
    }
}
