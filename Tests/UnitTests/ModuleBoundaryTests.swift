import Foundation
import Testing

/// The module picture of docs/architecture.md (decision 0076): the HTTP server and the console
/// reach the database only through the operations (`LedgerApplication`), so neither may name the
/// storage module, the PostgreSQL driver or the cluster manager, in Package.swift or in a source
/// file. The compiler enforces the import once Package.swift leaves the dependency out; these
/// tests keep the dependency from coming back unnoticed.
@Suite("module boundaries")
struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// What the HTTP layer and the console must not depend on.
    static let storage = ["LedgerPostgres", "PostgresNIO", "LedgerCluster"]
    static let doors = ["LedgerServer", "LedgerConsole"]

    @Test("Package.swift gives the server and the console no storage dependency", arguments: doors)
    func packageDependencies(target: String) throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let block = try #require(Self.targetBlock(target, in: package), "Package.swift has no target \(target)")
        #expect(Self.named(Self.storage, in: block).isEmpty, "\(target) depends on \(Self.named(Self.storage, in: block))")
    }

    @Test("no source file of the server or the console imports the storage module", arguments: doors)
    func sourceImports(target: String) throws {
        let folder = Self.root.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") })
        #expect(files.count > 3, "\(folder.path) holds too few Swift files: is the path right?")
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let storage = text.split(separator: "\n").compactMap(Self.importedModule).filter(Self.storage.contains)
            #expect(storage.isEmpty, "Sources/\(target)/\(file) imports \(storage.joined(separator: ", "))")
        }
    }

    @Test("the check finds a storage dependency where there is one")
    func checkCanFail() throws {
        let package = """
            .target(name: "LedgerConsole", dependencies: ["LedgerCore", "LedgerPostgres"]),
            .target(
                name: "LedgerServer",
                dependencies: [
                    "LedgerApplication",
                    .product(name: "PostgresNIO", package: "postgres-nio"),
                ]
            ),
            .target(name: "LedgerPostgres", dependencies: ["LedgerCore"]),
            """
        #expect(Self.named(Self.storage, in: try #require(Self.targetBlock("LedgerConsole", in: package))) == ["LedgerPostgres"])
        #expect(Self.named(Self.storage, in: try #require(Self.targetBlock("LedgerServer", in: package))) == ["PostgresNIO"])
        #expect(Self.targetBlock("LedgerClient", in: package) == nil)
        #expect(Self.importedModule("import LedgerPostgres // for now") == "LedgerPostgres")
        #expect(Self.importedModule("@_exported import PostgresNIO") == "PostgresNIO")
        #expect(Self.importedModule("// import LedgerPostgres") == nil)
    }

    /// The module an `import` line names (`@testable`, `@_exported` and a trailing comment allowed), or nil.
    static func importedModule(_ line: Substring) -> String? {
        let words = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first?.split(separator: " ") ?? []
        guard let at = words.firstIndex(of: "import"), words[..<at].allSatisfy({ $0.hasPrefix("@") }), at + 1 < words.count else { return nil }
        return String(words[at + 1])
    }

    /// The text of `target`'s declaration: from its `name:` to the next target's.
    static func targetBlock(_ target: String, in package: String) -> Substring? {
        guard let start = package.range(of: "name: \"\(target)\"") else { return nil }
        let rest = package[start.upperBound...]
        let next = ["\n        .target(", "\n        .executableTarget(", "\n        .testTarget(", "\n    .target(", "\n.target("]
            .compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
        return rest[..<next]
    }

    /// Which of `names` appear quoted in `block`.
    static func named(_ names: [String], in block: Substring) -> [String] {
        names.filter { block.contains("\"\($0)\"") }
    }
}
