import ArgumentParser
import Foundation
import LedgerCore
import LedgerGenerators

/// `consent-ledger catalogue`.
struct Catalogue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the event catalogue: every type, field, allowed value and an example.",
        discussion: """
            Generated from the same schemas that validate events at append, so it cannot drift from \
            the code. docs/events.md is this command's output (`consent-ledger catalogue --out docs/events.md`), \
            and a test fails when the committed file differs. `--sql sql/generated` writes the same catalogue as \
            the SQL functions ledger.append_events enforces it with (decision 0035); a test fails when those differ too.
            """)

    @Option(help: "The format (markdown).")
    var format: String = "markdown"

    @Option(help: "Write to this file instead of standard output.")
    var out: String?

    @Option(help: "Write the catalogue's SQL functions (what ledger.append_events enforces) into this folder (sql/generated).")
    var sql: String?

    func validate() throws {
        guard format == "markdown" else { throw ValidationError("--format markdown is the only format so far") }
        var isFolder: ObjCBool = false
        if let sql, !(FileManager.default.fileExists(atPath: sql, isDirectory: &isFolder) && isFolder.boolValue) {
            throw ValidationError("--sql \(sql): there is no such folder; create it first (mkdir -p \(sql)), or give sql/generated")
        }
    }

    func run() async throws {
        if let sql {
            for file in CatalogueSQL.files {
                let path = URL(fileURLWithPath: sql).appendingPathComponent(file.name).path
                try file.text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            Console.note("wrote \(CatalogueSQL.files.count) SQL files of the catalogue to \(sql)")
            if out == nil { return }
        }
        let text = CatalogueMarkdown.render()
        if let out {
            try text.write(toFile: out, atomically: true, encoding: .utf8)
            Console.note("wrote the catalogue (\(EventCatalogue.eventTypes.count) event types) to \(out)")
        } else {
            try Console.outRaw(Array((text).utf8))
        }
    }
}
