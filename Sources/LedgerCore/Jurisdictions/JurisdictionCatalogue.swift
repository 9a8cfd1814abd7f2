/// The jurisdiction codes the ledger knows: the ISO 3166-1 alpha-2 countries and ISO 3166-2
/// subdivisions of Debian's iso-codes 4.15.0 (`Jurisdictions/Data/`, compiled in by the EmbedSQL
/// build plugin; decision 0024), and the group `EU`, whose member states are the ledger's own list
/// (``euMemberStates``, as of ``euMembershipDate``).
///
/// A scope is what a report for a code takes in (``scope(of:)``): a country its subdivisions, `EU`
/// its member states and theirs, a subdivision itself alone. An event is stored whatever its code
/// (a surprising code is evidence too); a report refuses a code the catalogue does not know.
public struct JurisdictionCatalogue: Sendable {
    /// What a code is.
    public enum Kind: String, Sendable, Equatable {
        /// An ISO 3166-1 alpha-2 country (`US`, `DE`).
        case country
        /// An ISO 3166-2 subdivision of a country (`US-TX`, `DE-BY`).
        case subdivision
        /// A group of countries (`EU`).
        case group
    }

    /// One known code.
    public struct Entry: Sendable, Equatable {
        /// The code (`US-TX`).
        public let code: String
        /// Its name as iso-codes gives it (`Texas`; a subdivision's in the language the standard uses).
        public let name: String
        /// Country, subdivision or group.
        public let kind: Kind
        /// The country it belongs to: a country's own code, a subdivision's prefix (`US`); nil for a group.
        public let country: String?
    }

    /// The version of iso-codes the data was taken from.
    public static let isoCodesVersion = "4.15.0"

    /// The member states of the European Union (ISO 3166-1 codes; Greece is `GR`, not the EU's `EL`).
    public static let euMemberStates = [
        "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
        "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
    ]
    /// The date the member-state list holds from: the United Kingdom's withdrawal (2020-02-01);
    /// still the 27 when last checked, 2026-11-25.
    public static let euMembershipDate = "2020-02-01"

    /// Codes that are not ISO 3166 codes but are often used for one, with the code to give instead.
    static let aliases = ["UK": "GB", "EL": "GR"]

    /// The catalogue compiled into the binary.
    public static let standard = JurisdictionCatalogue(
        countries: EmbeddedJurisdictions.files["iso-3166-1.txt"] ?? "",
        subdivisions: EmbeddedJurisdictions.files["iso-3166-2.txt"] ?? "")

    private let entries: [String: Entry]
    private let subdivisionsByCountry: [String: [String]]
    private let groups: [String: [String]]

    /// A catalogue from the data files' text (`CODE<TAB>Name` lines), with the group `EU`.
    init(countries: String, subdivisions: String) {
        var entries: [String: Entry] = [:]
        var byCountry: [String: [String]] = [:]
        for line in countries.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let code = String(parts[0])
            entries[code] = Entry(code: code, name: String(parts[1]), kind: .country, country: code)
        }
        for line in subdivisions.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let hyphen = parts[0].firstIndex(of: "-") else { continue }
            let code = String(parts[0]), country = String(parts[0][..<hyphen])
            entries[code] = Entry(code: code, name: String(parts[1]), kind: .subdivision, country: country)
            byCountry[country, default: []].append(code)
        }
        entries["EU"] = Entry(code: "EU", name: "European Union", kind: .group, country: nil)
        self.entries = entries
        self.subdivisionsByCountry = byCountry.mapValues { $0.sorted() }
        self.groups = ["EU": Self.euMemberStates]
    }

    /// The entry of `code`, or nil when it is not a known code.
    public func entry(_ code: String) -> Entry? { entries[code] }

    /// Whether `code` is an ISO 3166-1 alpha-2 country, an ISO 3166-2 subdivision, or `EU`.
    public func isKnown(_ code: String) -> Bool { entries[code] != nil }

    /// The name of a known code (`US-TX`: `Texas`).
    public func name(of code: String) -> String? { entries[code]?.name }

    /// The number of countries and of subdivisions known.
    public var counts: (countries: Int, subdivisions: Int) {
        (entries.values.count(where: { $0.kind == .country }), entries.values.count(where: { $0.kind == .subdivision }))
    }

    /// The subdivisions of a country, sorted; empty for anything else.
    public func subdivisions(of country: String) -> [String] { subdivisionsByCountry[country] ?? [] }

    /// Whether the known code `code` lies within `scope` (or is it): `US` contains `US-TX`, `EU`
    /// contains `DE` and `DE-BY`. An unknown code lies within nothing.
    public func contains(_ scope: String, _ code: String) -> Bool {
        guard let entry = entries[code], let outer = entries[scope] else { return false }
        if code == scope { return true }
        switch outer.kind {
        case .subdivision: return false
        case .country: return entry.kind == .subdivision && entry.country == scope
        case .group:
            guard let country = entry.country else { return false }
            return groups[scope]?.contains(country) == true
        }
    }

    /// What a report for `code` takes in, or an error that says what is wrong and what to give.
    public func scope(of code: String) throws(LedgerError) -> JurisdictionScope {
        guard let entry = entries[code] else { throw unknown(code) }
        switch entry.kind {
        case .subdivision:
            return JurisdictionScope(entry: entry, members: [code], withSubdivisions: false, membersAsOf: nil, codes: [code])
        case .country:
            return JurisdictionScope(entry: entry, members: [code], withSubdivisions: true, membersAsOf: nil,
                                     codes: [code] + subdivisions(of: code))
        case .group:
            let members = groups[code] ?? []
            return JurisdictionScope(entry: entry, members: members, withSubdivisions: true, membersAsOf: Self.euMembershipDate,
                                     codes: [code] + members.flatMap { [$0] + subdivisions(of: $0) })
        }
    }

    /// The error for a code the catalogue does not know: what is wrong, and the code that was
    /// probably meant (`TX`: Texas is `US-TX`; `UK`: `GB`; `Texas`: `US-TX`; `US-XX`: a subdivision of US).
    public func unknown(_ code: String) -> LedgerError {
        let general = "Give an ISO 3166-1 country code (US, GB, DE), an ISO 3166-2 subdivision code (US-TX, DE-BY) or EU "
            + "(its \(Self.euMemberStates.count) member states); the codes are those of iso-codes \(Self.isoCodesVersion)."
        let meant = suggestions(for: code)
        let message: String
        if let hyphen = code.firstIndex(of: "-"), let country = entries[String(code[..<hyphen])], country.kind == .country {
            message = "\(code) is not an ISO 3166 code: \(country.name) (\(country.code)) has no subdivision \(code[code.index(after: hyphen)...])"
        } else {
            message = "\(code) is not an ISO 3166 code"
        }
        let hint: String
        if !meant.isEmpty {
            hint = meant.map { "\($0.name) is \($0.code)" }.joined(separator: "; ") + ". " + general
        } else if let hyphen = code.firstIndex(of: "-"), let country = entries[String(code[..<hyphen])], country.kind == .country {
            let examples = subdivisions(of: country.code).prefix(3).map { "\($0) (\(entries[$0]!.name))" }
            hint = "Give \(country.code) for the whole of \(country.name)"
                + (examples.isEmpty ? "" : ", or one of its \(subdivisions(of: country.code).count) subdivisions such as \(examples.joined(separator: ", "))")
                + ". " + general
        } else {
            hint = general
        }
        return LedgerError(.invalidField, message, field: "jurisdiction", hint: hint)
    }

    /// The known codes `code` probably meant: an alias (`UK`), the same code in capitals, a code
    /// whose name it is, or subdivisions it is the end of (`TX`: `US-TX`). At most three.
    func suggestions(for code: String) -> [Entry] {
        if let alias = Self.aliases[code.uppercased()], let entry = entries[alias] { return [entry] }
        if let entry = entries[code.uppercased()] { return [entry] }
        let lowered = code.lowercased()
        let named = entries.values.filter { $0.name.lowercased() == lowered }
        if !named.isEmpty { return Array(named.sorted { $0.code < $1.code }.prefix(3)) }
        guard !code.contains("-"), !code.isEmpty else { return [] }
        let suffix = "-" + code.uppercased()
        return Array(entries.values.filter { $0.kind == .subdivision && $0.code.hasSuffix(suffix) }
            .sorted { $0.code < $1.code }.prefix(3))
    }
}

/// What a report for one jurisdiction code takes in (``JurisdictionCatalogue/scope(of:)``).
public struct JurisdictionScope: Sendable, Equatable {
    /// The code asked for, its name and kind.
    public let entry: JurisdictionCatalogue.Entry
    /// The countries or subdivision it is made of: a group's member states, else the code itself.
    public let members: [String]
    /// Whether the members' subdivisions are taken in too (a country, a group).
    public let withSubdivisions: Bool
    /// For a group, the date its member list holds from (`EU`: 2020-02-01).
    public let membersAsOf: String?
    /// Every code an event may carry to count in the report: the code itself, the members and
    /// their subdivisions.
    public let codes: [String]

    /// The code asked for.
    public var code: String { entry.code }

    /// The scope as the regulator report prints it.
    public var json: JSONValue {
        ["code": .string(entry.code), "name": .string(entry.name), "kind": .string(entry.kind.rawValue),
         "members": .array(members.map(JSONValue.string)), "withSubdivisions": .bool(withSubdivisions),
         "membersAsOf": membersAsOf.map(JSONValue.string) ?? .null, "codesTakenIn": .number(Double(codes.count))]
    }
}
