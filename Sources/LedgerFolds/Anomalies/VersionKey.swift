/// An app version as the rules compare it (`ledger.version_key`, sql/functions/version-key.sql): a
/// dotted number (`2.10.1`, each part at most nine digits) as its parts, compared part by part (a
/// shorter key that is a prefix of a longer one is smaller); anything else has no key and is never
/// compared.
public struct VersionKey: Comparable, Sendable, Hashable {
    /// The parts.
    public var parts: [Int]

    /// The key of `version`, or nil when it is not a dotted number.
    public init?(_ version: String?) {
        guard let version, !version.isEmpty else { return nil }
        var parts: [Int] = []
        for part in version.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...9).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(part) else { return nil }
            parts.append(value)
        }
        self.parts = parts
    }

    /// A key as PostgreSQL prints an `integer[]` (`{2,10,1}`), or nil.
    public init?(arrayText: String?) {
        guard let text = arrayText, text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst().dropLast()
        let parts = inner.isEmpty ? [] : inner.split(separator: ",").compactMap { Int($0) }
        self.parts = parts
    }

    /// The key as an `integer[]` literal (`{2,10,1}`).
    public var arrayText: String { "{" + parts.map(String.init).joined(separator: ",") + "}" }

    /// Orders keys part by part.
    public static func < (a: VersionKey, b: VersionKey) -> Bool { a.parts.lexicographicallyPrecedes(b.parts) }
}
