import LedgerCore
import LedgerGenerators
import Testing

/// The catalogue as Markdown: deterministic, complete, and its examples are the schemas' own.
@Suite("Event catalogue: Markdown")
struct CatalogueMarkdownTests {
    static let markdown = CatalogueMarkdown.render()

    @Test("rendering twice gives the same bytes")
    func deterministic() {
        let again = CatalogueMarkdown.render()
        #expect(Array(again.utf8) == Array(Self.markdown.utf8))
        #expect(Self.markdown.hasPrefix("# Event catalogue\n"))
        #expect(Self.markdown.hasSuffix("\n"))
        #expect(!Self.markdown.hasSuffix("\n\n"))
    }

    @Test("every type has a section, under its group, in docs/design/events.md's order")
    func everyTypeInOrder() throws {
        var position = Self.markdown.startIndex
        for group in EventGroup.allCases {
            let heading = try #require(Self.markdown.range(of: "\n## \(group.title)\n", range: position..<Self.markdown.endIndex),
                                       "group \(group.title) missing or out of order")
            position = heading.upperBound
            for schema in EventCatalogue.schemas where schema.group == group {
                let section = try #require(Self.markdown.range(of: "\n### \(schema.type)\n", range: position..<Self.markdown.endIndex),
                                           "\(schema.type) missing or out of order")
                position = section.upperBound
                #expect(Self.markdown.contains(schema.summary))
            }
        }
    }

    @Test("every field, allowed value, rule and derived fact appears")
    func everyDetail() {
        for schema in EventCatalogue.schemas {
            for path in CatalogueFixtures.schemaPaths(schema.fields) {
                #expect(Self.markdown.contains("| `\(path)` |"), "\(schema.type).\(path)")
            }
            for rule in schema.rules { #expect(Self.markdown.contains(rule.description)) }
            for fact in schema.derived { #expect(Self.markdown.contains("| `\(fact.name)` |")) }
        }
        #expect(Self.markdown.contains("`confirmed`, `checkedByOtherMethod` (deprecated)"))
        #expect(Self.markdown.contains("`313` (13+)"))
        #expect(Self.markdown.contains("#### AgeRangeShared version 1"))
        #expect(Self.markdown.contains("| `parentalControls.communicationLimits` |"))
        #expect(Self.markdown.contains("Personal data: `payload.reason`."))
        #expect(Self.markdown.contains("| `reason` | string, free text of up to 2000 characters | yes |  | yes |"))
        #expect(Self.markdown.contains("The ledger derives: `{\"legalCategory\":\"13to15\",\"verifiedAdult\":false}`."))
    }

    @Test("the n-th JSON block is the n-th type's example, and it validates")
    func examples() throws {
        let blocks = Self.markdown.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(blocks.count == EventCatalogue.schemas.count)
        for (block, schema) in zip(blocks, EventCatalogue.schemas) {
            let parsed = try JSONParser.parse(block)
            #expect(parsed == schema.example, "\(schema.type)")
            #expect(CatalogueFixtures.refusal(schema.type, parsed) == nil, "\(schema.type)")
        }
    }

    @Test("every table row has as many cells as its header (a pipe in a cell is escaped)")
    func tableShape() {
        func cells(_ line: Substring) -> Int {
            var count = 0
            var previous: Character = " "
            for character in line {
                if character == "|", previous != "\\" { count += 1 }
                previous = character
            }
            return count
        }
        var columns = 0
        var rows = 0
        for line in Self.markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { columns = 0; continue }
            if columns == 0 { columns = cells(line); continue }
            #expect(cells(line) == columns, "\(line)")
            rows += 1
        }
        #expect(rows > 100)
    }
}
