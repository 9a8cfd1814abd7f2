import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// `significant_changes` folded in Swift: loads the stored questions the range names (`load.sql`),
/// folds the range (``SignificantChangesFold``), stores new changes (`changes.sql`) and questions
/// (`questions.sql`) and merges the rows per change and subject (`subjects.sql`).
struct SignificantChangesStore: SwiftFold {
    var reads: [String] { SignificantChangesFold.reads }

    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws {
        var stored: [String: SignificantChangesFold.Question] = [:]
        let ids = Array(SignificantChangesFold.questionIds(in: events))
        if !ids.isEmpty {
            for try await (id, change, subject, position) in try await connection.watchedQuery(
                PostgresQuery(unsafeSQL: definition.statement("load.sql"), binds: Self.binds(range.log, [TextColumn(ids.map { $0 })])),
                logger: logger
            ).decode((String, String, String, Int64).self) {
                stored[id] = .init(questionId: id, changeId: change, subject: subject, position: position)
            }
        }
        var fold = SignificantChangesFold(
            storedQuestions: stored,
            changeDirectory: try await ChangeDirectory.load(for: events, range: range, on: connection, logger: logger))
        for event in events { fold.apply(event) }

        func run(_ file: String, _ columns: [TextColumn]) async throws {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: definition.statement(file),
                                                            binds: Self.binds(range.log, columns)), logger: logger)
        }
        if !fold.changes.isEmpty {
            let changes = fold.changes
            func column(_ value: (SignificantChangesFold.Change) -> String?) -> TextColumn { TextColumn(changes.map(value)) }
            try await run("changes.sql", [
                column(\.changeId), column(\.bundleId), column(\.introducedInVersion), column(\.description),
                column(\.ageRatingBefore), column(\.ageRatingAfter), column(\.declaredAt),
                column { String($0.declaredPosition) }, column(\.declaredEventId),
            ])
        }
        if !fold.questions.isEmpty {
            let questions = fold.questions
            try await run("questions.sql", [
                TextColumn(questions.map(\.questionId)), TextColumn(questions.map(\.changeId)),
                TextColumn(questions.map(\.subject)), TextColumn(questions.map { String($0.position) }),
            ])
        }
        let subjects = fold.subjects
        if !subjects.isEmpty {
            func column(_ value: (SignificantChangesFold.SubjectRow) -> String?) -> TextColumn { TextColumn(subjects.map(value)) }
            try await run("subjects.sql", [
                column(\.changeId), column(\.subject),
                column { $0.asked?.questionId }, column { $0.asked?.at }, column { $0.asked.map { String($0.position) } },
                column { $0.asked?.eventId },
                column { $0.answered?.answer }, column { $0.answered?.at }, column { $0.answered.map { String($0.position) } },
                column { $0.answered?.eventId },
                column { $0.acknowledged?.at }, column { $0.acknowledged.map { String($0.position) } },
                column { $0.acknowledged?.eventId }, column { $0.acknowledged?.handledBy },
            ])
        }
    }

    /// `$1` the log, then the columns.
    static func binds(_ log: String, _ columns: [TextColumn]) -> PostgresBindings {
        var binds = PostgresBindings(capacity: columns.count + 1)
        binds.append(log)
        for column in columns { binds.append(column) }
        return binds
    }
}
