import Foundation
import Testing

/// docs/getting-started.md's Swift is compiled: the package's `getting-started-example` target holds
/// each block between `// guide: NAME` and `// guide: end`, and the build compiles it.
@Suite("docs/getting-started.md's Swift")
struct GettingStartedSwiftTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The fenced ```swift blocks of a Markdown text, each without its fences.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = [], current: [Substring]? = nil
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = [] } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n")); current = nil
            } else if current != nil { current!.append(line) }
        }
        return blocks
    }

    /// The regions of the example's source, each without its markers, by name.
    static func regions(in source: String) -> [(name: String, text: String)] {
        var regions: [(String, String)] = [], name: String? = nil, lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "// guide: end", let open = name { regions.append((open, lines.joined(separator: "\n"))); name = nil }
            else if line.hasPrefix("// guide: ") { name = String(line.dropFirst("// guide: ".count)); lines = [] }
            else if name != nil { lines.append(line) }
        }
        return regions
    }

    @Test("every Swift block of the guide is a region of the compiled example, and every region is in the guide")
    func guideIsCompiled() throws {
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/getting-started.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/getting-started-example/main.swift"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: guide)
        let regions = Self.regions(in: source)
        #expect(!blocks.isEmpty && !regions.isEmpty)
        let uncompiled = blocks.filter { block in !regions.contains { $0.text == block } }
        #expect(uncompiled.isEmpty, """
            Swift blocks of docs/getting-started.md that are not in Sources/getting-started-example/main.swift as written \
            (first lines): \(uncompiled.map { $0.prefix { $0 != "\n" } })
            """)
        let missing = regions.filter { !blocks.contains($0.text) }.map(\.name)
        #expect(missing.isEmpty, "the example's regions \(missing) are not in docs/getting-started.md as written")
    }

    @Test("a block that differs from the example by one character is found")
    func driftIsFound() {
        let source = "// guide: a\nlet x = 1\n// guide: end\n"
        let region = Self.regions(in: source)
        #expect(region.map(\.text) == ["let x = 1"])
        #expect(!Self.swiftBlocks(in: "text\n```swift\nlet x = 2\n```\n").contains(region[0].text))
    }
}
