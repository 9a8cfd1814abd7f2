import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// A range of one log that a fold takes: positions (`after`, `through`] passing `filter`.
struct FoldRange: Sendable {
    var log: String
    var after: Int64
    var through: Int64
    var filter: FoldInput.Filter = .none
}

/// A projection folded in Swift (decision 0061): it folds a range's typed events (``LogReader``)
/// with its pure fold (`LedgerFolds`) and stores the rows with its folder's statements
/// (``ProjectionDefinition/statements``), in the tables the connection's `search_path` finds, in the
/// caller's transaction.
protocol SwiftFold: Sendable {
    /// The event types the fold reads (the reader reads no others).
    var reads: [String] { get }

    /// Folds `events` (the range's events of the types the projection reads, in position order).
    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws
}

/// The projections' folds, by projection name.
enum SwiftFolds {
    /// Each Swift fold and its version. Bump the version when a change to the fold's code changes
    /// the rows it makes: the version is part of the definition hash, so builds made by the old
    /// code are stale and are rebuilt.
    static let all: [String: (fold: any SwiftFold, version: Int)] = [
        "report_facts": (ReportFactsStore(), 1),
        "pending": (PendingStore(), 1),
        "significant_changes": (SignificantChangesStore(), 1),
        "consent_register": (ConsentRegisterStore(), 1),
        "subject_state": (SubjectStateStore(), 1),
        "anomalies": (AnomaliesStore(), 1),
    ]

    /// The event types `name`'s Swift fold reads (none when it has none).
    static func reads(of name: String) -> [String] { all[name]?.fold.reads ?? [] }

    /// The version of `name`'s Swift fold (0 when it has none).
    static func version(of name: String) -> Int { all[name]?.version ?? 0 }

    /// The Swift fold of `definition`.
    static func fold(of definition: ProjectionDefinition) -> any SwiftFold {
        guard let fold = all[definition.name]?.fold else {
            preconditionFailure("the projection \(definition.name) has no fold in SwiftFolds.all")
        }
        return fold
    }
}

extension FoldInput {
    /// Folds `range` into `projection`'s tables of the connection's `search_path`, in the caller's
    /// transaction: the one way every use (catch-up, rebuild, time travel, replay) folds. The
    /// range's typed events (``LogReader``) go through the projection's Swift fold. `read`, when
    /// given, holds the range's events already read (of the projection's types and maybe others, in
    /// position order): a rebuild reads each range once for every projection. Returns the events folded.
    @discardableResult
    static func foldRange(_ projection: ProjectionDefinition, _ range: FoldRange, read: [LedgerEvent]? = nil,
                          on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let types = Set(projection.reads)
        let events: [LedgerEvent]
        if let read {
            events = read.filter { types.contains($0.type) }
        } else {
            events = try await LogReader.events(log: range.log, after: range.after, through: range.through,
                                                types: projection.reads, filter: range.filter, on: connection, logger: logger)
        }
        if !events.isEmpty {
            try await SwiftFolds.fold(of: projection).fold(events, range: range, definition: projection, on: connection, logger: logger)
        }
        return events.count
    }
}
