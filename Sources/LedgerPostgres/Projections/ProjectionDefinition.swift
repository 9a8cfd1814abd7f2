import LedgerCore

/// One read model of `projections/<name>/`: the tables it keeps, the event types it reads, and
/// the statements that fold a range of events (in the session's `fold_input` table) into them.
///
/// The same statements serve catch-up, a full rebuild and time travel: only the schema they run
/// in (`search_path`) and the range in `fold_input` differ.
public struct ProjectionDefinition: Sendable, Hashable {
    /// The folder's name, which is also the schema the live tables are in (`subject_state`).
    public let name: String
    /// `tables.sql`: CREATE statements, written without a schema.
    public let tableStatements: [String]
    /// `indexes.sql` (optional): the indexes only readers use, which no fold statement needs. A
    /// rebuild creates them after its last range (one sort each, not an entry per inserted row);
    /// every other schema gets them with its tables (``schemaStatements``).
    public let indexStatements: [String]
    /// `fold.sql`: the statements, in order, that fold `fold_input` into the tables; empty for a
    /// projection folded in Swift (``isFoldedInSwift``).
    public let foldStatements: [String]
    /// For a projection folded in Swift (``SwiftFolds``), which has no `fold.sql`: its other SQL
    /// files (`load.sql`, `write.sql`, …: reading the stored state of the keys a range touches,
    /// storing the rows its fold made, bound as one text array per column), by file name, each one
    /// statement. Empty for an SQL-folded projection.
    public let swiftStatements: [String: String]
    /// The event types the fold looks at (an SQL fold's `reads.txt`, a Swift fold's own list); the
    /// runner reads no others.
    public let reads: [String]
    /// SHA-256 (hex) of everything that determines the rows: this folder's files and the shared
    /// fold input. A build made with another hash is stale.
    public let definitionHash: String

    /// The read models, in the order they are run and listed.
    public static let all: [ProjectionDefinition] = names.map { load($0) }

    /// The folders of `projections/`, in order.
    public static let names = ["subject_state", "consent_register", "significant_changes", "pending", "anomalies", "report_facts"]

    /// The read model called `name`, or an error listing the names there are.
    public static func named(_ name: String) throws(LedgerError) -> ProjectionDefinition {
        guard let found = all.first(where: { $0.name == name }) else {
            throw LedgerError(.projectionNotFound, "there is no projection named \(name)",
                              hint: "Projections: \(names.joined(separator: ", ")).")
        }
        return found
    }

    /// `maintenance_work_mem` while a rebuild creates the reader indexes: enough to sort a
    /// million-row table's keys in memory.
    public static let readerIndexMemory = "256MB"

    /// Whether the projection is folded in Swift from typed events (``SwiftFolds``, decision 0061)
    /// rather than by SQL statements over `fold_input`.
    public var isFoldedInSwift: Bool { !swiftStatements.isEmpty }

    /// The Swift fold's statement in `file` (`write.sql`).
    func statement(_ file: String) -> String {
        guard let statement = swiftStatements[file] else {
            preconditionFailure("projections/\(name)/\(file) is missing from the build")
        }
        return statement
    }

    /// The tables and their indexes: what makes a schema that is folded into as events arrive.
    public var schemaStatements: [String] { tableStatements + indexStatements }

    /// The schema a rebuild builds into before it is swapped in.
    public var buildSchema: String { name + "__build" }

    static func load(_ name: String) -> ProjectionDefinition {
        let files = EmbeddedProjections.files
        func file(_ path: String) -> String {
            guard let text = files["\(name)/\(path)"] else {
                preconditionFailure("projections/\(name)/\(path) is missing from the build")
            }
            return text
        }
        let tables = file("tables.sql")
        let indexes = files["\(name)/indexes.sql"] ?? ""
        // A projection without fold.sql is folded in Swift: its other SQL files are the fold's
        // statements, and the fold's version stands for its code in the hash (bumping it rebuilds).
        var swift: [String: String] = [:]
        if files["\(name)/fold.sql"] == nil {
            for (path, text) in files where path.hasPrefix(name + "/") && path.hasSuffix(".sql") {
                let file = String(path.dropFirst(name.count + 1))
                guard !["tables.sql", "indexes.sql"].contains(file) else { continue }
                let statements = SQLScript.statements(in: text)
                precondition(statements.count == 1, "projections/\(path) must hold one statement")
                swift[file] = statements[0]
            }
        }
        // A Swift fold says itself which types it reads; an SQL fold's folder lists them.
        let reads = swift.isEmpty ? file("reads.txt") : SwiftFolds.reads(of: name).joined(separator: "\n")
        let fold = swift.isEmpty ? file("fold.sql")
            : swift.keys.sorted().map { "-- \($0)\n" + swift[$0]! }.joined(separator: "\n")
                + "\n-- Swift fold version \(SwiftFolds.version(of: name))"
        return ProjectionDefinition(
            name: name,
            tableStatements: SQLScript.statements(in: tables),
            indexStatements: SQLScript.statements(in: indexes),
            foldStatements: swift.isEmpty ? SQLScript.statements(in: fold) : [],
            swiftStatements: swift,
            reads: reads.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") },
            definitionHash: definitionHash(tables: tables, indexes: indexes, fold: fold, reads: reads,
                                           foldInputTable: FoldInput.tableSQL, fill: FoldInput.fillSQL,
                                           bookkeeping: ProjectionSchema.bookkeepingSQL))
    }

    /// The definition hash of a projection's files and the shared ones (`common/`): SHA-256 over
    /// each text followed by a zero byte. `indexes` counts only when there is one, so that adding
    /// that file to one projection leaves the others' hashes (and builds) as they were.
    public static func definitionHash(tables: String, indexes: String, fold: String, reads: String,
                                      foldInputTable: String, fill: String, bookkeeping: String) -> String {
        var bytes: [UInt8] = []
        for part in [tables] + (indexes.isEmpty ? [] : [indexes]) + [fold, reads, foldInputTable, fill, bookkeeping] {
            bytes += Array(part.utf8)
            bytes.append(0)
        }
        return LedgerHash.hex(LedgerHash.sha256(bytes))
    }
}

extension LedgerError.Code {
    /// No projection of that name.
    public static let projectionNotFound = LedgerError.Code("projection-not-found", .badInput)
    /// Another process holds the projection (a rebuild in progress).
    public static let projectionBusy = LedgerError.Code("projection-busy", .badInput)
    /// The projection's tables are not installed, or were built by another definition.
    public static let projectionNotReady = LedgerError.Code("projection-not-ready", .badInput)
}
