import Crypto

/// A SHA-256 value held in four words: compared and carried without an allocation per event.
public struct Hash32: Equatable, Sendable {
    private var a: UInt64, b: UInt64, c: UInt64, d: UInt64

    /// 32 zero bytes.
    public static let zero = Hash32(a: 0, b: 0, c: 0, d: 0)

    private init(a: UInt64, b: UInt64, c: UInt64, d: UInt64) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The hash in `bytes`; nil unless they are exactly 32.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 32 else { return nil }
        a = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        b = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        c = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        d = bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
    }

    /// A SHA-256 digest.
    public init(_ digest: SHA256.Digest) {
        self = digest.withUnsafeBytes { Hash32($0)! }
    }

    /// Its 32 bytes, for the length of `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var copy = self
        return Swift.withUnsafeBytes(of: &copy) { body($0) }
    }

    /// Its 32 bytes.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
