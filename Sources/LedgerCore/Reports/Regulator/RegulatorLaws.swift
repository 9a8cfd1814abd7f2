/// The laws behind the regulator report's coverage and retention sections, and the titles they give
/// a report for one jurisdiction (decision 0024): a section names the laws of its list that govern
/// the whole of the report's scope (``Law/governing(_:among:in:)``), lists apart those that govern
/// only a part of it, and has a neutral title when none governs the whole: a Texas report's
/// coverage is "Coverage (Texas SB 2420)", never California's law.
public enum RegulatorLaws {
    /// The laws whose duty the coverage section measures: asking for an age signal when an app is
    /// downloaded or launched, and for the installs that predate it.
    public static let coverage: [Law] = [.texasSB2420, .utahSB142, .louisianaHB570, .californiaAB1043,
                                         .ukChildrensCode, .euDSA]
    /// The laws whose duty the retention section shows: a written retention policy and deletion.
    public static let retention: [Law] = [.coppa]

    /// The coverage section's title and laws for `scope`.
    public static func coverage(scope: String, in catalogue: JurisdictionCatalogue = .standard) -> [String: JSONValue] {
        section("Coverage", laws: coverage, scope: scope, in: catalogue)
    }

    /// The retention section's title and laws for `scope`.
    public static func retention(scope: String, in catalogue: JurisdictionCatalogue = .standard) -> [String: JSONValue] {
        section("Retention and erasure", laws: retention, scope: scope, in: catalogue)
    }

    /// `title` (the section's name, followed by the short titles of the laws that govern the whole
    /// scope, if any), `laws` (those laws) and `lawsForParts` (the laws of `laws` that govern only a
    /// part of the scope, each with its jurisdictions).
    public static func section(_ name: String, laws: [Law], scope: String,
                               in catalogue: JurisdictionCatalogue = .standard) -> [String: JSONValue] {
        let whole = Law.governing(scope, among: laws, in: catalogue)
        let parts = Law.governingPart(of: scope, among: laws, in: catalogue)
        let title = whole.isEmpty ? name : name + " (" + whole.map(\.shortTitle).joined(separator: ", ") + ")"
        return ["title": .string(title), "laws": .array(whole.map(\.json)), "lawsForParts": .array(parts.map(\.json))]
    }
}
