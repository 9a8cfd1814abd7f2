import LedgerCore
/// Identifiers the simulator makes up, all drawn from a ``SimulationRandom`` so that a seed gives
/// the same ones every time: pseudonyms (never names), UUIDs in the version-4 layout, exception,
/// install and transaction ids.
extension SimulationRandom {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `count` random bytes as lowercase hex.
    mutating func hex(bytes count: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        var word = next(), left = 8
        for _ in 0..<count {
            if left == 0 { word = next(); left = 8 }
            let byte = UInt8(truncatingIfNeeded: word)
            word >>= 8
            left -= 1
            out.append(Self.hexDigits[Int(byte >> 4)])
            out.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A lowercase UUID with the version-4 layout (version nibble 4, variant bits 10), as event
    /// and question ids take.
    mutating func uuid() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        var high = next(), low = next()
        for i in 0..<8 { bytes[i] = UInt8(truncatingIfNeeded: high); high >>= 8 }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: low); low >>= 8 }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(Self.hexDigits[Int(byte >> 4)])
            out.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A pseudonym of the shape ``Pseudonym/derive(accountId:tenantSecret:kind:)`` gives:
    /// the kind's prefix and 32 hex digits.
    mutating func pseudonym(_ kind: Pseudonym.Kind) -> String { kind.prefix + hex(bytes: 16) }

    /// A MarketplaceKit age-rating exception id: `ex-` and 12 hex digits.
    mutating func exceptionId() -> String { "ex-" + hex(bytes: 6) }

    /// A Google Play install id: `play-` and 16 hex digits.
    mutating func installId() -> String { "play-" + hex(bytes: 8) }

    /// An App Store `appTransactionId`: 18 decimal digits, not starting with 0.
    mutating func appTransactionId() -> String {
        String(100_000_000_000_000_000 + UInt64(below(900_000_000_000_000_000)))
    }
}
