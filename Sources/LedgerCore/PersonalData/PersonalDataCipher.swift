import Crypto
import Foundation

/// Encrypts and decrypts personal-data fields with a subject's key (crypto-shredding: destroy the
/// key and the fields are gone, while the records and their hashes stay intact).
///
/// A sealed field is the JSON object `{"$sealed":"v1.<base64url(nonce ‖ ciphertext ‖ tag)>"}`:
/// AES-256-GCM with the plaintext being the field's RFC 8785 canonical JSON and the additional
/// data binding it to where it belongs (`log`, `subject`, `eventId` and the field's path), so a
/// sealed value cannot be moved to another field or event unnoticed.
///
/// The nonce is synthetic (as in SIV): HMAC-SHA-256 over the context and the plaintext, under a key
/// derived from the subject key. Sealing the same field of the same event twice therefore gives the
/// same bytes, which keeps a retried batch byte-identical (idempotent) — and two different
/// plaintexts never share a nonce.
public enum PersonalDataCipher {
    /// The member name that marks a sealed value.
    public static let marker = "$sealed"

    /// What a sealed field shows once its subject has been erased.
    public static let erasedMarker: JSONValue = .object(["$erased": .bool(true)])

    /// Where a sealed value belongs; bound into the ciphertext.
    public struct Context: Sendable, Hashable {
        /// The log id.
        public var log: String
        /// The subject's pseudonym.
        public var subject: String
        /// The event id.
        public var eventId: String
        /// The field's JSON path (`payload.topic.communication.personInformation`).
        public var path: String

        /// Creates a context.
        public init(log: String, subject: String, eventId: String, path: String) {
            self.log = log
            self.subject = subject
            self.eventId = eventId
            self.path = path
        }

        var bytes: [UInt8] { Array("consent-ledger/personal-data/v1\u{0}\(log)\u{0}\(subject)\u{0}\(eventId)\u{0}\(path)".utf8) }
    }

    /// A fresh random 32-byte subject key.
    public static func newKey() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// Seals `value` under `key` for `context`.
    public static func seal(_ value: JSONValue, key: [UInt8], context: Context) throws(LedgerError) -> JSONValue {
        let (encryptionKey, nonceKey) = try subkeys(key)
        let plaintext = CanonicalJSON.encode(value)
        var mac = HMAC<SHA256>(key: nonceKey)
        mac.update(data: context.bytes)
        mac.update(data: plaintext)
        let nonceBytes = Array(mac.finalize()).prefix(12)
        do {
            let nonce = try AES.GCM.Nonce(data: Array(nonceBytes))
            let box = try AES.GCM.seal(plaintext, using: encryptionKey, nonce: nonce, authenticating: context.bytes)
            guard let combined = box.combined else { throw LedgerError(.integrityFailure, "AES-GCM produced no combined form") }
            return .object([marker: .string("v1." + Base64URL.encode(combined))])
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError(.integrityFailure, "sealing a personal-data field failed: \(error)")
        }
    }

    /// Opens a sealed value; throws when the key or context is wrong or the bytes were changed.
    public static func open(_ sealed: JSONValue, key: [UInt8], context: Context) throws(LedgerError) -> JSONValue {
        guard case .object(let members) = sealed, members.count == 1, case .string(let text)? = members[marker],
              text.hasPrefix("v1."), let combined = Base64URL.decode(text.dropFirst(3)) else {
            throw LedgerError(.integrityFailure, "not a sealed value", field: context.path)
        }
        let (encryptionKey, _) = try subkeys(key)
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            let plaintext = try AES.GCM.open(box, using: encryptionKey, authenticating: context.bytes)
            return try JSONParser.parse(Array(plaintext))
        } catch {
            throw LedgerError(.integrityFailure, "a sealed personal-data field does not open with its subject's key (changed, moved, or the wrong key)",
                              field: context.path)
        }
    }

    /// Whether `value` is a sealed field.
    public static func isSealed(_ value: JSONValue) -> Bool {
        if case .object(let members) = value, members.count == 1, case .string? = members[marker] { return true }
        return false
    }

    static func subkeys(_ key: [UInt8]) throws(LedgerError) -> (SymmetricKey, SymmetricKey) {
        guard key.count == 32 else { throw LedgerError(.integrityFailure, "a subject key must be 32 bytes, not \(key.count)") }
        let master = SymmetricKey(data: key)
        let encryption = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Array("aes-256-gcm".utf8), outputByteCount: 32)
        let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Array("synthetic-nonce".utf8), outputByteCount: 32)
        return (encryption, nonce)
    }
}
