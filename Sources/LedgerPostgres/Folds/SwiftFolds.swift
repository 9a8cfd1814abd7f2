import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// A range of one log that a fold takes: positions (`after`, `through`] passing `filter`. The
/// projections that fold the same range share one `FoldRange` (or one ``RecentRange``'s memo), so
/// that the change directory is read once for all of them.
struct FoldRange: Sendable {
    var log: String
    var after: Int64
    var through: Int64
    var filter: FoldInput.Filter = .none
    /// The range's change directory, once a fold has read it (``ChangeDirectory/load(for:range:on:logger:)``).
    var directory = ChangeDirectoryMemo()
}

/// A projection folded in Swift (decision 0061): it folds a range's typed events (``LogReader``)
/// with its pure fold (`LedgerFolds`) and stores the rows with its folder's statements
/// (``ProjectionDefinition/statements``), in the tables the connection's `search_path` finds, in the
/// caller's transaction.
protocol SwiftFold: Sendable {
    /// The event types the fold reads (the reader reads no others).
    var reads: [String] { get }

    /// Whether the fold takes events from test environments too (``LedgerEvent/isFromTestEnvironment``):
    /// only `report_facts`, which counts them by environment in the regulator report's scope.
    var foldsTestEnvironments: Bool { get }

    /// Folds `events` (the range's events of the types the projection reads, in position order).
    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws
}

extension SwiftFold {
    /// Events from test environments change no state (decision 0068).
    var foldsTestEnvironments: Bool { false }
}

/// The projections' folds, by projection name.
enum SwiftFolds {
    /// Each Swift fold and its version. Bump the version when a change to the fold's code changes
    /// the rows it makes: the version is part of the definition hash, so builds made by the old
    /// code are stale and are rebuilt.
    static let all: [String: (fold: any SwiftFold, version: Int)] = [
        "report_facts": (ReportFactsStore(), 2),
        "pending": (PendingStore(), 2),
        "significant_changes": (SignificantChangesStore(), 2),
        "consent_register": (ConsentRegisterStore(), 2),
        "subject_state": (SubjectStateStore(), 2),
        "anomalies": (AnomaliesStore(), 2),
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
        var events: [LedgerEvent]
        if let read {
            events = read.filter { types.contains($0.type) }
        } else {
            events = try await LogReader.events(log: range.log, after: range.after, through: range.through,
                                                types: projection.reads, filter: range.filter, on: connection, logger: logger)
        }
        let fold = SwiftFolds.fold(of: projection)
        if !fold.foldsTestEnvironments { events.removeAll { $0.isFromTestEnvironment } }
        if !events.isEmpty {
            try await fold.fold(events, range: range, definition: projection, on: connection, logger: logger)
        }
        return events.count
    }
}
