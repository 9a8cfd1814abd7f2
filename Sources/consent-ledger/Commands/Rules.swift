import ArgumentParser
import Foundation
import LedgerCore
import LedgerGenerators

/// `consent-ledger rules`.
struct Rules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the rules catalogue: every rule the ledger judges events by, with its basis in law and its evidence.",
        discussion: """
            Written from the same catalogue the projections and reports name their findings by. \
            docs/rules.md is this command's output (`consent-ledger rules --out docs/rules.md`), and a \
            test fails when the committed file differs.
            """)

    @Option(help: "The format (markdown).")
    var format: String = "markdown"

    @Option(help: "Write to this file instead of standard output.")
    var out: String?

    func validate() throws {
        guard format == "markdown" else { throw ValidationError("--format markdown is the only format so far") }
    }

    func run() async throws {
        let text = RulesMarkdown.render()
        if let out {
            try text.write(toFile: out, atomically: true, encoding: .utf8)
            Console.note("wrote the rules catalogue (\(RuleCatalogue.all.count) rules) to \(out)")
        } else {
            try Console.outRaw(Array(text.utf8))
        }
    }
}
