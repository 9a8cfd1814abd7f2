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
    /// `write.sql`, for a projection folded in Swift (``SwiftFolds``): the statement that stores
    /// the rows its fold made of a range, bound as one text array per column.
    public let writeStatement: String?
    /// `reads.txt`: the event types the fold looks at; the runner reads no others.
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
    public var isFoldedInSwift: Bool { writeStatement != nil }

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
        let tables = file("tables.sql"), reads = file("reads.txt")
        let indexes = files["\(name)/indexes.sql"] ?? ""
        let write = files["\(name)/write.sql"]
        // A Swift fold's version stands for its code in the hash: bumping it rebuilds the projection.
        let fold = write.map { $0 + "\n-- Swift fold version \(SwiftFolds.version(of: name))" } ?? file("fold.sql")
        return ProjectionDefinition(
            name: name,
            tableStatements: SQLScript.statements(in: tables),
            indexStatements: SQLScript.statements(in: indexes),
            foldStatements: write == nil ? SQLScript.statements(in: fold) : [],
            writeStatement: write.map { SQLScript.statements(in: $0).first ?? "" },
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
