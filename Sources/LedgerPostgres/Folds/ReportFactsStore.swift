import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// `report_facts` folded in Swift: ``ReportFactsFold`` makes each event's row, `write.sql` stores
/// them and adds up the period counts and installs.
struct ReportFactsStore: SwiftFold {
    var reads: [String] { ReportFactsFold.reads }
    /// Every event has its row, with its environment: the regulator report's scope counts the test
    /// environments' events, and its figures leave them out (decision 0068).
    var foldsTestEnvironments: Bool { true }

    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws {
        let changes = try await ChangeDirectory.load(for: events, range: range, on: connection, logger: logger)
        let rows = events.map { ReportFactsFold.row($0, changes: changes) }
        var binds = PostgresBindings(capacity: 25)
        func column(_ value: (FactRow) -> String?) { binds.append(TextColumn(rows.map(value))) }
        column(\.log); column { String($0.position) }; column(\.eventId); column(\.type); column(\.occurredAt)
        column(\.subject); column(\.bundleId); column(\.jurisdiction); column(\.environment); column(\.ref)
        column(\.trigger); column(\.category); column(\.declaration); column(\.playStatus); column(\.checkMethod)
        column(\.outcome); column(\.error); column(\.answer); column(\.channel); column(\.answeredAt)
        column(\.changeId); column(\.ratedAge); column(\.gateState); column(\.version); column(\.description)
        try await connection.watchedQuery(PostgresQuery(unsafeSQL: definition.statement("write.sql"), binds: binds), logger: logger)
    }
}
