import LedgerCore

/// One read model of `projections/<name>/`: the tables it keeps, the event types its fold reads,
/// and the statements its fold (`Sources/LedgerFolds/`, run by ``SwiftFolds``) loads and stores
/// rows with (decision 0061).
///
/// The same fold serves catch-up, a full rebuild and time travel: only the schema its statements
/// run in (`search_path`) and the range differ.
public struct ProjectionDefinition: Sendable, Hashable {
    /// The folder's name, which is also the schema the live tables are in (`subject_state`).
    public let name: String
    /// `tables.sql`: CREATE statements, written without a schema.
    public let tableStatements: [String]
    /// `indexes.sql` (optional): the indexes only readers use, which no fold statement needs. A
    /// rebuild creates them after its last range (one sort each, not an entry per inserted row);
    /// every other schema gets them with its tables (``schemaStatements``).
    public let indexStatements: [String]
    /// The folder's other SQL files (`load.sql`, `write.sql`, …: reading the stored rows of the keys
    /// a range touches, storing the rows the fold made, each column bound as one text array), by
    /// file name, each one statement.
    public let statements: [String: String]
    /// The event types the fold reads (its own list); the reader reads no others.
    public let reads: [String]
    /// SHA-256 (hex) of everything that determines the rows: this folder's files, the fold's
    /// version and its types. A build made with another hash is stale.
    public let definitionHash: String

    /// The read models, in the order they are run and listed.
    public static let all: [ProjectionDefinition] = names.map { load($0) }

    /// The folders of `projections/`, in order.
    public static let names = Name.allCases.map(\.rawValue)

    /// A read model's name, for code that names one: a misspelt name does not compile, where a
    /// string would be refused only when run (`.named("report_facts")`).
    public enum Name: String, CaseIterable, Sendable {
        case subjectState = "subject_state"
        case consentRegister = "consent_register"
        case significantChanges = "significant_changes"
        case pending
        case anomalies
        case reportFacts = "report_facts"
    }

    /// The read model `name`.
    public static func named(_ name: Name) -> ProjectionDefinition {
        guard let found = all.first(where: { $0.name == name.rawValue }) else {
            preconditionFailure("\(name.rawValue) is a projection's name but not in ProjectionDefinition.all")
        }
        return found
    }

    /// The read model called `name` (as a user typed it), or an error listing the names there are.
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

    /// The fold's statement in `file` (`write.sql`).
    func statement(_ file: String) -> String {
        guard let statement = statements[file] else {
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
        // The fold's statements; its version stands for its code in the hash (bumping it rebuilds).
        var statements: [String: String] = [:]
        for (path, text) in files where path.hasPrefix(name + "/") && path.hasSuffix(".sql") {
            let file = String(path.dropFirst(name.count + 1))
            guard !["tables.sql", "indexes.sql"].contains(file) else { continue }
            let parsed = SQLScript.statements(in: text)
            precondition(parsed.count == 1, "projections/\(path) must hold one statement")
            statements[file] = parsed[0]
        }
        let reads = SwiftFolds.reads(of: name)
        let fold = statements.keys.sorted().map { "-- \($0)\n" + statements[$0]! }.joined(separator: "\n")
            + "\n-- Swift fold version \(SwiftFolds.version(of: name))"
        return ProjectionDefinition(
            name: name,
            tableStatements: SQLScript.statements(in: tables),
            indexStatements: SQLScript.statements(in: indexes),
            statements: statements,
            reads: reads,
            definitionHash: definitionHash(tables: tables, indexes: indexes, fold: fold, reads: reads.joined(separator: "\n"),
                                           bookkeeping: ProjectionSchema.bookkeepingSQL))
    }

    /// The definition hash of a projection's files, its fold and the shared bookkeeping (`common/`):
    /// SHA-256 over each text followed by a zero byte. `indexes` counts only when there is one, so that adding
    /// that file to one projection leaves the others' hashes (and builds) as they were.
    public static func definitionHash(tables: String, indexes: String, fold: String, reads: String,
                                      bookkeeping: String) -> String {
        var bytes: [UInt8] = []
        for part in [tables] + (indexes.isEmpty ? [] : [indexes]) + [fold, reads, bookkeeping] {
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
