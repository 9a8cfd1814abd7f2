import Foundation
import LedgerCore
import LedgerGenerators
import LedgerFolds
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

    @Test("the anomalies fold decides exactly the catalogue's rules without a policy setting, each with the catalogue's source")
    func foldDecidesTheCatalogue() {
        // A rule with a policy setting (rescission-not-enforced, age-signal-expired) is decided by the
        // reports and explain against the policy's threshold, not by the fold.
        let expected = Set(RuleCatalogue.all.filter { $0.policySetting == nil }.map(\.id))
        #expect(Set(FoldedRule.allCases.map(\.rawValue)) == expected)
        for rule in FoldedRule.allCases {
            #expect(rule.source == (RuleCatalogue.rule(rule.rawValue)?.kind == .violation ? "rule" : "catalogue"))
        }
    }

    @Test("the regulator report's schema lists exactly the catalogue's violations")
    func schemaEnum() throws {
        let schema = try JSONParser.parse(Array(try Self.file("docs/reports/regulator.schema.json").utf8))
        let text = CanonicalJSON.encodeString(schema)
        let enumText = CanonicalJSON.encodeString(.array(RuleCatalogue.violations.map { .string($0.id) }))
        #expect(text.contains("\"enum\":" + enumText))
    }
}
