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
    /// `fold.sql`: the statements, in order, that fold `fold_input` into the tables.
    public let foldStatements: [String]
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
        let tables = file("tables.sql"), fold = file("fold.sql"), reads = file("reads.txt")
        var bytes: [UInt8] = []
        for part in [tables, fold, reads, FoldInput.tableSQL, FoldInput.fillSQL, ProjectionSchema.bookkeepingSQL] {
            bytes += Array(part.utf8)
            bytes.append(0)
        }
        return ProjectionDefinition(
            name: name,
            tableStatements: SQLScript.statements(in: tables),
            foldStatements: SQLScript.statements(in: fold),
            reads: reads.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") },
            definitionHash: LedgerHash.hex(LedgerHash.sha256(bytes)))
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
