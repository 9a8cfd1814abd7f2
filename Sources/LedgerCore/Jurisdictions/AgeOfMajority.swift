/// The age of majority of a jurisdiction: the age at which a person stops being a minor under its
/// law. 18 almost everywhere; the exceptions the ledger knows are listed with the statute that
/// sets them (``exceptions``), and a subdivision not listed takes its country's.
///
/// The ledger reads it at append, from the event's `jurisdiction.code`, to derive the legal
/// category of an age range (``LegalCategory/of(lowerBound:upperBound:ageOfMajority:)``): in
/// Alabama an 18-year-old is still a minor (``LegalCategory/from18toMajority``).
/// ```swift
/// AgeOfMajority.of(jurisdiction: "US-AL")   // 19
/// AgeOfMajority.of(jurisdiction: "US-TX")   // 18
/// AgeOfMajority.of(jurisdiction: nil)       // 18
/// ```
public enum AgeOfMajority {
    /// Where no exception applies (and where the event names no jurisdiction): 18, the age the
    /// app-store acts (Texas SB 2420, Utah SB 142, Louisiana HB 570, California AB 1043) and the
    /// UK and EU codes draw the line at.
    public static let standard = 18

    /// A jurisdiction whose age of majority is not 18.
    public struct Exception: Sendable, Equatable {
        /// The ISO 3166 code (`US-AL`).
        public let code: String
        /// The age of majority.
        public let age: Int
        /// The law that sets it.
        public let citation: String
    }

    /// The exceptions, by code. Each is a public statute; checked 2026-11-26.
    public static let exceptions: [Exception] = [
        Exception(code: "US-AL", age: 19, citation: "Code of Alabama § 26-1-1 (majority at 19)"),
        Exception(code: "US-NE", age: 19, citation: "Nebraska Revised Statutes § 43-2101 (minors are persons under 19)"),
        Exception(code: "US-MS", age: 21, citation: "Mississippi Code § 1-3-27 (a minor is a person under 21)"),
        Exception(code: "US-PR", age: 21, citation: "Puerto Rico Civil Code (31 L.P.R.A.): majority at 21"),
        Exception(code: "PR", age: 21, citation: "Puerto Rico Civil Code (31 L.P.R.A.): majority at 21 (Puerto Rico's own ISO 3166-1 code)"),
    ]

    private static let byCode = Dictionary(uniqueKeysWithValues: exceptions.map { ($0.code, $0.age) })

    /// The age of majority of `code`: its own exception, else its country's (`US-AL-X` has none;
    /// a subdivision `XX-YY` falls back to `XX`), else ``standard``. An unknown or missing code
    /// gets ``standard``: the ledger stores an event whatever its code.
    public static func of(jurisdiction code: String?) -> Int {
        guard let code else { return standard }
        if let age = byCode[code] { return age }
        if let hyphen = code.firstIndex(of: "-"), let age = byCode[String(code[..<hyphen])] { return age }
        return standard
    }
}
