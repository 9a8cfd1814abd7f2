import Foundation
import LedgerCore
import LedgerGenerators
import Testing

@Suite("docs/events.md")
struct CatalogueDocumentTests {
    @Test("the committed docs/events.md is exactly what the catalogue writes")
    func current() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent("docs/events.md"), encoding: .utf8)
        let written = CatalogueMarkdown.render()
        #expect(committed == written, "docs/events.md is stale: run `swift run consent-ledger catalogue --out docs/events.md` and commit it")
    }
}
