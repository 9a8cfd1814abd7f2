import Foundation
import LedgerCore
import LedgerGenerators
import Testing

@Suite("sql/generated")
struct CatalogueSQLDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the committed sql/generated files are exactly what the catalogue writes")
    func current() throws {
        for file in CatalogueSQL.files {
            let committed = try String(contentsOf: Self.root.appendingPathComponent("sql/generated/" + file.name), encoding: .utf8)
            #expect(committed == file.text,
                    "sql/generated/\(file.name) is stale: run `swift run consent-ledger catalogue --sql sql/generated` and commit it")
        }
    }

    @Test("every generated file is listed in sql/manifest.txt, before append_events")
    func listed() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("sql/manifest.txt"), encoding: .utf8)
        let files = manifest.split(separator: "\n").compactMap { $0.hasPrefix("file ") ? String($0.dropFirst(5)) : nil }
        let append = try #require(files.firstIndex(of: "functions/append-events.sql"))
        for file in CatalogueSQL.files {
            let index = try #require(files.firstIndex(of: "generated/" + file.name), "generated/\(file.name) is not in sql/manifest.txt")
            #expect(index < append)
        }
    }

    @Test("derived facts read only fields every schema version of their type has")
    func derivedFieldsInEveryVersion() {
        for schema in EventCatalogue.schemas {
            for fact in schema.derived {
                for version in schema.schemaVersions {
                    let names = (schema.fields(version: version) ?? []).map(\.name)
                    for field in fact.computation.fieldsRead {
                        #expect(names.contains(field), "\(schema.type) v\(version) has no \(field), which \(fact.name) reads")
                    }
                }
            }
        }
    }
}
