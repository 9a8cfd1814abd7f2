import Crypto

/// The ledger's two hashes (docs/architecture.md):
///
/// - `leaf  = SHA-256(0x00 || record)`: the RFC 6962 / RFC 9162 Merkle leaf hash of a record;
/// - `chain = SHA-256(previous chain || leaf)`, starting from ``genesis`` (32 zero bytes).
///
/// PostgreSQL computes and checks the same values (`sha256(bytea)`); this side recomputes them
/// independently in `verify`.
public enum LedgerHash {
    /// The chain hash "before position 1": 32 zero bytes.
    public static let genesis = [UInt8](repeating: 0, count: 32)

    /// `SHA-256(0x00 || record)`.
    public static func leaf(_ record: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: [0x00])
        hasher.update(data: Array(record))
        return Array(hasher.finalize())
    }

    /// `SHA-256(previous || leaf)`.
    public static func chain(previous: [UInt8], leaf: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: previous)
        hasher.update(data: leaf)
        return Array(hasher.finalize())
    }

    /// ``chain(previous:leaf:)`` of two ``Hash32``s.
    public static func chain(previous: Hash32, leaf: Hash32) -> Hash32 {
        var hasher = SHA256()
        previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        leaf.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return Hash32(hasher.finalize())
    }

    /// Plain SHA-256.
    public static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        Array(SHA256.hash(data: Array(bytes)))
    }

    /// Lowercase hex of a hash.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
