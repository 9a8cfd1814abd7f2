/// Which laws govern a jurisdiction a report is for (decision 0024): a report's section is titled by
/// the laws that govern the whole of its scope, never by another state's law.
extension Law {
    /// Whether the law governs every event of `scope`: the scope is one of its jurisdictions or lies
    /// within one (`US-TX` within COPPA's `US`, `DE` within the GDPR's `EU`). A platform's rules
    /// (no jurisdictions) govern everywhere.
    public func governs(_ scope: String, in catalogue: JurisdictionCatalogue = .standard) -> Bool {
        jurisdictions.isEmpty || jurisdictions.contains { catalogue.contains($0, scope) }
    }

    /// Whether the law governs a part of `scope` but not the whole: one of its jurisdictions lies
    /// within the scope (Texas SB 2420's `US-TX` within `US`).
    public func governsPart(of scope: String, in catalogue: JurisdictionCatalogue = .standard) -> Bool {
        !governs(scope, in: catalogue) && jurisdictions.contains { catalogue.contains(scope, $0) }
    }

    /// Of `laws`, in their order, those that govern the whole of `scope`.
    public static func governing(_ scope: String, among laws: [Law] = all,
                                 in catalogue: JurisdictionCatalogue = .standard) -> [Law] {
        laws.filter { $0.governs(scope, in: catalogue) }
    }

    /// Of `laws`, in their order, those that govern a part of `scope` only.
    public static func governingPart(of scope: String, among laws: [Law] = all,
                                     in catalogue: JurisdictionCatalogue = .standard) -> [Law] {
        laws.filter { $0.governsPart(of: scope, in: catalogue) }
    }

    /// The name a title uses: the title up to its parenthesis (`Texas SB 2420`).
    public var shortTitle: String {
        guard let open = title.range(of: " (") else { return title }
        return String(title[..<open.lowerBound])
    }

    /// The law as a report cites it: id, title, citation, jurisdictions, the day it takes effect by
    /// its terms, when it applied in fact, and its status (as checked on ``statusChecked``).
    public var json: JSONValue {
        ["id": .string(id), "title": .string(title), "citation": .string(citation),
         "jurisdictions": .array(jurisdictions.map(JSONValue.string)), "effective": effective.map(JSONValue.string) ?? .null,
         "inForce": .array(inForce.map(\.json)), "status": .string(status), "statusChecked": .string(Law.statusChecked)]
    }
}
