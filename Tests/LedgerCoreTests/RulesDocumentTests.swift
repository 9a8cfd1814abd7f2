import Foundation
import LedgerCore
import Testing

/// docs/rules.md, the report schema and the projection's SQL all follow the rules catalogue.
@Suite("docs/rules.md and the rules catalogue")
struct RulesDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("the committed docs/rules.md is exactly what the catalogue writes")
    func current() throws {
        #expect(try Self.file("docs/rules.md") == RulesMarkdown.render(),
                "docs/rules.md is stale: run `swift run consent-ledger rules --out docs/rules.md` and commit it")
    }

    @Test("rule ids are unique, and every law a rule cites is in Law.all")
    func idsAndLaws() {
        let ids = RuleCatalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        let laws = Set(Law.all.map(\.id))
        for rule in RuleCatalogue.all {
            for basis in rule.basis { #expect(laws.contains(basis.law.id), "\(rule.id) cites \(basis.law.id)") }
        }
    }

    @Test("the anomalies projection finds exactly the catalogue's kinds, each with the catalogue's source")
    func foldFindsTheCatalogue() throws {
        let fold = try Self.file("projections/anomalies/fold.sql")
        // Each finding is selected as `…, '<kind>', event_id, subject, '<source>'` (f. or g. or none before event_id).
        let pattern = try NSRegularExpression(pattern: #"'([a-z]+(?:-[a-z]+)+)', (?:[a-z]\.)?event_id, (?:[a-z]\.)?subject, '(rule|catalogue)'"#)
        var found: [String: String] = [:]
        for match in pattern.matches(in: fold, range: NSRange(fold.startIndex..., in: fold)) {
            found[String(fold[Range(match.range(at: 1), in: fold)!])] = String(fold[Range(match.range(at: 2), in: fold)!])
        }
        var expected: [String: String] = [:]
        // A rule with a policy setting (rescission-not-enforced, age-signal-expired) is decided by the
        // reports and explain against the policy's threshold, not by the fold.
        for rule in RuleCatalogue.all where rule.policySetting == nil {
            expected[rule.id] = rule.kind == .violation ? "rule" : "catalogue"
        }
        #expect(found == expected)
    }

    @Test("the regulator report's schema lists exactly the catalogue's violations")
    func schemaEnum() throws {
        let schema = try JSONParser.parse(Array(try Self.file("docs/reports/regulator.schema.json").utf8))
        let text = CanonicalJSON.encodeString(schema)
        let enumText = CanonicalJSON.encodeString(.array(RuleCatalogue.violations.map { .string($0.id) }))
        #expect(text.contains("\"enum\":" + enumText))
    }
}
