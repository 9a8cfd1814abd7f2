import Foundation

/// The laws behind the regulator report's coverage and retention sections, and the titles they give
/// a report for one jurisdiction and period (decisions 0024 and 0063): a section names the laws of
/// its list that govern the whole of the report's scope (``Law/governing(_:among:in:)``) and applied
/// during the period (``Law/applies(from:to:)``), lists apart those that govern only a part of it,
/// and those that govern it but did not apply then (enjoined, not yet in force, never in force),
/// and has a neutral title when none governs the whole: a Texas report's coverage for June 2026 is
/// "Coverage (Texas SB 2420)", for March 2026 (enjoined) just "Coverage", never California's law.
public enum RegulatorLaws {
    /// The laws whose duty the coverage section measures: asking for an age signal when an app is
    /// downloaded or launched, and for the installs that predate it.
    public static let coverage: [Law] = [.texasSB2420, .utahSB142, .louisianaHB570, .louisianaHB977, .californiaAB1043,
                                         .ukChildrensCode, .euDSA]
    /// The laws whose duty the retention section shows: a written retention policy and deletion.
    public static let retention: [Law] = [.coppa]

    /// The coverage section's title and laws for `scope` and the period [`from`, `to`).
    public static func coverage(scope: String, from: Date, to: Date,
                                in catalogue: JurisdictionCatalogue = .standard) -> [String: JSONValue] {
        section("Coverage", laws: coverage, scope: scope, from: from, to: to, in: catalogue)
    }

    /// The retention section's title and laws for `scope` and the period [`from`, `to`).
    public static func retention(scope: String, from: Date, to: Date,
                                 in catalogue: JurisdictionCatalogue = .standard) -> [String: JSONValue] {
        section("Retention and erasure", laws: retention, scope: scope, from: from, to: to, in: catalogue)
    }

    /// `title` (the section's name, followed by the short titles of the laws that govern the whole
    /// scope and applied during the period, if any), `laws` (those laws), `lawsForParts` (the laws of
    /// `laws` that govern only a part of the scope and applied, each with its jurisdictions) and
    /// `lawsNotInForce` (the laws of `laws` that govern the whole scope but did not apply at any time
    /// in the period, each with its status).
    public static func section(_ name: String, laws: [Law], scope: String, from: Date, to: Date,
                               in catalogue: JurisdictionCatalogue = .standard) -> [String: JSONValue] {
        let governing = Law.governing(scope, among: laws, in: catalogue)
        let whole = governing.filter { $0.applies(from: from, to: to) }
        let notInForce = governing.filter { !$0.applies(from: from, to: to) }
        let parts = Law.governingPart(of: scope, among: laws, in: catalogue).filter { $0.applies(from: from, to: to) }
        let title = whole.isEmpty ? name : name + " (" + whole.map(\.shortTitle).joined(separator: ", ") + ")"
        return ["title": .string(title), "laws": .array(whole.map(\.json)), "lawsForParts": .array(parts.map(\.json)),
                "lawsNotInForce": .array(notInForce.map(\.json))]
    }
}
