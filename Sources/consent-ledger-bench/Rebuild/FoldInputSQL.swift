import Foundation
import LedgerCore
import LedgerPostgres

/// The shared fold-input SQL of `projections/common/` (the temporary table and the statement that
/// fills it), read from the checkout.
///
/// LedgerPostgres compiles these files in but keeps them internal (`FoldInput.tableSQL`,
/// `FoldInput.fillSQL`), so the breakdown, which runs the fold step by step itself, reads them from
/// disk. To be sure they are the very SQL the rebuilds ran, every projection's
/// ``ProjectionDefinition/definitionHash`` (which covers them) is recomputed from the files on disk
/// and must match the build's.
struct FoldInputSQL: Sendable {
    /// `common/fold-input.sql`: `CREATE TEMPORARY TABLE IF NOT EXISTS fold_input …`.
    let table: String
    /// `common/fill-fold-input.sql`: the `INSERT INTO fold_input SELECT … FROM ledger.events …`.
    let fill: String

    /// Reads the files under `directory` (the checkout's `projections/`) and checks them against
    /// the build.
    static func load(directory: String) throws -> FoldInputSQL {
        func file(_ path: String) throws -> String {
            let full = (directory as NSString).appendingPathComponent(path)
            do {
                return try String(contentsOfFile: full, encoding: .utf8)
            } catch {
                throw BenchError("cannot read \(full) (the breakdown needs the checkout's projections/ folder; "
                    + "give --projections-dir, or --no-breakdown): \(error.localizedDescription)")
            }
        }
        let table = try file("common/fold-input.sql")
        let fill = try file("common/fill-fold-input.sql")
        let bookkeeping = try file("common/bookkeeping.sql")
        for definition in ProjectionDefinition.all {
            let indexes = (try? file("\(definition.name)/indexes.sql")) ?? ""
            let hash = ProjectionDefinition.definitionHash(
                tables: try file("\(definition.name)/tables.sql"), indexes: indexes, fold: try file("\(definition.name)/fold.sql"),
                reads: try file("\(definition.name)/reads.txt"), foldInputTable: table, fill: fill, bookkeeping: bookkeeping)
            guard hash == definition.definitionHash else {
                throw BenchError("\(directory)/ differs from the SQL compiled into this build (\(definition.name)'s "
                    + "definition hash); rebuild the benchmark, or give --no-breakdown")
            }
        }
        return FoldInputSQL(table: table, fill: fill)
    }
}
