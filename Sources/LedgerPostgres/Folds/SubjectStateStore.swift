import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// `subject_state` folded in Swift: ``SubjectStateFold`` takes the range's latest event of each
/// kind per key; the statements merge them where they are later than the stored rows
/// (`subjects.sql`, `erased.sql`, `platforms.sql`, `features.sql`, `app_facts.sql`), so no stored
/// state is loaded.
struct SubjectStateStore: SwiftFold {
    var reads: [String] { SubjectStateFold.reads }

    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws {
        var fold = SubjectStateFold()
        for event in events { fold.apply(event) }
        func run(_ file: String, _ columns: [TextColumn]) async throws {
            try await connection.watchedQuery(PostgresQuery(unsafeSQL: definition.statement(file),
                                                            binds: SignificantChangesStore.binds(range.log, columns)),
                                              logger: logger)
        }
        func text(_ value: Int64?) -> String? { value.map(String.init) }
        let subjects = fold.subjects.values.sorted { $0.subject < $1.subject }
        if !subjects.isEmpty {
            func column(_ value: (SubjectStateFold.Subject) -> String?) -> TextColumn { TextColumn(subjects.map(value)) }
            try await run("subjects.sql", [
                column(\.subject), column { String($0.latest.position) }, column(\.latest.envelope.eventId),
                column(\.latest.envelope.occurredAt), column { String($0.count) },
                column { $0.age?.event.derivedText("legalCategory") }, column { $0.age?.lower.map(String.init) },
                column { $0.age?.upper.map(String.init) }, column { $0.age?.declaration },
                column { $0.age.flatMap { Self.boolean($0.event.derived["verifiedAdult"]) } }, column { $0.age?.event.type },
                column { text($0.age?.event.position) }, column { $0.age?.event.envelope.eventId },
                column { $0.age?.event.envelope.occurredAt },
                column { $0.controls.map { Self.arrayLiteral($0.controls) } }, column { text($0.controls?.position) },
            ])
        }
        let erased = subjects.compactMap { subject in subject.erased.map { (subject.subject, $0) } }
        if !erased.isEmpty {
            try await run("erased.sql", [
                TextColumn(erased.map(\.0)), TextColumn(erased.map { String($0.1.position) }),
                TextColumn(erased.map(\.1.envelope.eventId)),
            ])
        }
        let signals = Array(fold.platformSignals.values)
        if !signals.isEmpty {
            func column(_ value: (SubjectStateFold.PlatformSignal) -> String?) -> TextColumn { TextColumn(signals.map(value)) }
            try await run("platforms.sql", [
                column(\.subject), column(\.platform), column(\.event.type), column(\.outcome),
                column { $0.event.derivedText("legalCategory") }, column { String($0.event.position) },
                column(\.event.envelope.eventId), column(\.event.envelope.occurredAt),
            ])
        }
        let features = Array(fold.features.values)
        if !features.isEmpty {
            func column(_ value: (SubjectStateFold.Feature) -> String?) -> TextColumn { TextColumn(features.map(value)) }
            try await run("features.sql", [
                column(\.subject), column(\.bundleId), column(\.gate.feature), column(\.gate.state.rawValue),
                column(\.gate.policyVersion), column { Self.arrayLiteral($0.gate.basis) }, column { String($0.event.position) },
                column(\.event.envelope.eventId), column(\.event.envelope.occurredAt),
            ])
        }
        let facts = Array(fold.appFacts.values)
        if !facts.isEmpty {
            func column(_ value: (SubjectStateFold.AppFact) -> String?) -> TextColumn { TextColumn(facts.map(value)) }
            try await run("app_facts.sql", [
                column(\.subject), column(\.bundleId), column(\.fact), column(\.value), column { Self.arrayLiteral($0.detail) },
                column { String($0.event.position) }, column(\.event.envelope.eventId), column(\.event.envelope.occurredAt),
            ])
        }
    }

    /// A derived boolean as the database's text (`true`, `false`).
    static func boolean(_ value: JSONValue?) -> String? {
        if case .bool(let flag)? = value { return flag ? "true" : "false" }
        return nil
    }

    /// An array literal of plain tokens (`{a,b}`), each quoted so that no element is read as NULL.
    static func arrayLiteral(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
