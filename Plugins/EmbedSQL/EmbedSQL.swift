import Foundation
import PackagePlugin

/// Build-tool plugin: compiles the package's top-level `sql/` folder into the LedgerPostgres
/// module (as `EmbeddedSQL.files`), so the binary carries its schema and needs no files beside it,
/// while `sql/` stays the one place the schema is written.
@main
struct EmbedSQL: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let sqlFolder = context.package.directoryURL.appending(path: "sql")
        let files = (FileManager.default.subpaths(atPath: sqlFolder.path) ?? [])
            .filter { $0.hasSuffix(".sql") || $0.hasSuffix(".txt") }
            .sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSQL.swift")
        return [
            .buildCommand(
                displayName: "Embedding sql/ into \(target.name)",
                executable: try context.tool(named: "embed-sql").url,
                arguments: [sqlFolder.path, output.path],
                inputFiles: files.map { sqlFolder.appending(path: $0) },
                outputFiles: [output]
            )
        ]
    }
}
