import Crypto
import Foundation

/// The hash functions of the RFC 9162 (RFC 6962) Merkle tree, with SHA-256.
///
/// Every hash is a 32-byte `[UInt8]`. Leaves and interior nodes are hashed with
/// different one-byte prefixes (RFC 9162 section 2.1.1), so a leaf can never be
/// passed off as an interior node or the other way round.
public enum MerkleHash {
    /// The length in bytes of every hash in the tree (SHA-256).
    public static let byteCount = 32

    /// The leaf hash of one entry: `SHA-256(0x00 || entry)`.
    public static func leaf(_ entry: some DataProtocol) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: leafPrefix)
        hasher.update(data: entry)
        return Array(hasher.finalize())
    }

    /// The hash of an interior node: `SHA-256(0x01 || left || right)`.
    public static func node(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: nodePrefix)
        hasher.update(data: left)
        hasher.update(data: right)
        return Array(hasher.finalize())
    }

    /// ``leaf(_:)`` of bytes in place, as a ``Hash32``: no copy of the entry, no allocation (what
    /// `verify` hashes every record with).
    public static func leaf(_ entry: UnsafeRawBufferPointer) -> Hash32 {
        var hasher = SHA256()
        hasher.update(data: leafPrefix)
        hasher.update(bufferPointer: entry)
        return Hash32(hasher.finalize())
    }

    /// ``node(_:_:)`` of two ``Hash32``s.
    public static func node(_ left: Hash32, _ right: Hash32) -> Hash32 {
        var hasher = SHA256()
        hasher.update(data: nodePrefix)
        left.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        right.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return Hash32(hasher.finalize())
    }

    /// The root hash of the empty tree: the SHA-256 of the empty string,
    /// `e3b0c442...b855`.
    public static let emptyRoot: [UInt8] = Array(SHA256.hash(data: [UInt8]()))

    private static let leafPrefix: [UInt8] = [0x00]
    private static let nodePrefix: [UInt8] = [0x01]
}
