import Foundation
import LedgerCore

/// The ledger schema as this build carries it: `sql/manifest.txt` (the version and the files in
/// the order they are applied) and the files themselves, compiled in by the EmbedSQL plugin.
public struct SchemaManifest: Sendable {
    /// The schema version this build knows.
    public let version: Int
    /// The files in order, as (path relative to sql/, SQL text).
    public let files: [(path: String, sql: String)]

    /// The embedded manifest.
    public static func embedded() throws(LedgerError) -> SchemaManifest {
        try SchemaManifest(manifest: EmbeddedSQL.files["manifest.txt"] ?? "", files: EmbeddedSQL.files)
    }

    /// Every .sql file this build carries, by path (for tests that check the manifest lists them all).
    public static var embeddedPaths: [String] { EmbeddedSQL.files.keys.filter { $0.hasSuffix(".sql") }.sorted() }

    /// Reads a manifest: `version N` once, then `file PATH` lines; `#` starts a comment.
    public init(manifest: String, files available: [String: String]) throws(LedgerError) {
        var version: Int?
        var files: [(String, String)] = []
        for (number, raw) in manifest.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            switch (parts.first, parts.count) {
            case ("version", 2):
                version = Int(parts[1])
            case ("file", 2):
                guard let sql = available[parts[1]] else {
                    throw LedgerError(.schemaMissing, "sql/manifest.txt line \(number + 1) names \(parts[1]), which this build does not carry")
                }
                files.append((parts[1], sql))
            default:
                throw LedgerError(.schemaMissing, "sql/manifest.txt line \(number + 1) is neither `version N` nor `file PATH`: \(line)")
            }
        }
        guard let version, version >= 1, !files.isEmpty else {
            throw LedgerError(.schemaMissing, "sql/manifest.txt has no `version N` line or no files")
        }
        self.version = version
        self.files = files
    }
}
