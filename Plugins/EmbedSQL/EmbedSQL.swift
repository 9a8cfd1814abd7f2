import Foundation
import PackagePlugin

/// Build-tool plugin: compiles the package's top-level `sql/` folder (the ledger schema) and
/// `projections/` folder (the read models) into the LedgerPostgres module, as
/// `EmbeddedSQL.files` and `EmbeddedProjections.files`, so the binary carries its SQL and needs
/// no files beside it, while those folders stay the one place the SQL is written. For LedgerCore
/// it compiles the ISO 3166 codes of `Sources/LedgerCore/Jurisdictions/Data/` the same way, as
/// `EmbeddedJurisdictions.files` (decision 0024).
@main
struct EmbedSQL: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folders = target.name == "LedgerCore"
            ? [("Sources/LedgerCore/Jurisdictions/Data", "EmbeddedJurisdictions")]
            : [("sql", "EmbeddedSQL"), ("projections", "EmbeddedProjections")]
        return try folders.map { folderName, enumName in
            let folder = context.package.directoryURL.appending(path: folderName)
            let files = (FileManager.default.subpaths(atPath: folder.path) ?? [])
                .filter { $0.hasSuffix(".sql") || $0.hasSuffix(".txt") }
                .sorted()
            let output = context.pluginWorkDirectoryURL.appending(path: "\(enumName).swift")
            return .buildCommand(
                displayName: "Embedding \(folderName)/ into \(target.name)",
                executable: try context.tool(named: "embed-sql").url,
                arguments: [folder.path, output.path, enumName],
                inputFiles: files.map { folder.appending(path: $0) },
                outputFiles: [output]
            )
        }
    }
}
