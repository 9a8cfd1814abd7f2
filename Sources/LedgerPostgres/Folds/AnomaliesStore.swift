import LedgerCore
import LedgerFolds
import Logging
import PostgresNIO

/// `anomalies` folded in Swift: loads the stored lookup rows the range's keys need (`load.sql`),
/// folds the range (``AnomaliesFold``: the lookups, then the rules) and stores what it added, one
/// statement per table (`age_signals.sql` … `findings.sql`).
struct AnomaliesStore: SwiftFold {
    typealias R = AnomalyRows
    var reads: [String] { AnomaliesFold.reads }

    func fold(_ events: [LedgerEvent], range: FoldRange, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws {
        let stored = try await load(AnomaliesFold.needs(events), log: range.log, definition: definition,
                                    on: connection, logger: logger)
        var fold = AnomaliesFold(stored: stored,
                                 changes: try await ChangeDirectory.load(for: events, range: range, on: connection, logger: logger))
        fold.fold(events)
        try await store(fold, log: range.log, definition: definition, on: connection, logger: logger)
    }

    /// Reads the rows `needs` names.
    func load(_ needs: AnomaliesFold.Needs, log: String, definition: ProjectionDefinition,
              on connection: PostgresConnection, logger: Logger) async throws -> AnomaliesFold.Stored {
        func column(_ values: some Collection<String>) -> TextColumn { TextColumn(Array(values)) }
        func pairs(_ keys: Set<[String]>) -> (TextColumn, TextColumn) {
            let list = Array(keys)
            return (TextColumn(list.map { $0[0] }), TextColumn(list.map { $0[1] }))
        }
        let requirementKeys = pairs(needs.requirementKeys), installKeys = pairs(needs.installKeys)
        let exceptionInstalls = pairs(needs.exceptionInstalls)
        let columns = [
            column(needs.openingSubjects), requirementKeys.0, requirementKeys.1, installKeys.0, installKeys.1,
            column(needs.changeIds), column(needs.bundles), column(needs.questionIds), column(needs.gateSubjects),
            column(needs.exceptionIds), exceptionInstalls.0, exceptionInstalls.1, column(needs.citedIds),
        ]
        var stored = AnomaliesFold.Stored()
        let rows = try await connection.watchedQuery(
            PostgresQuery(unsafeSQL: definition.statement("load.sql"), binds: SignificantChangesStore.binds(log, columns)),
            logger: logger)
        for try await (table, json) in rows.decode((String, String).self) {
            guard case .array(let v) = try JSONParser.parse(Array(json.utf8)) else { continue }
            func s(_ i: Int) -> String? {
                switch v[i] {
                case .string(let text): return text
                case .number(let n): return String(Int64(n))
                default: return nil
                }
            }
            func n(_ i: Int) -> Int64? { if case .number(let x) = v[i] { return Int64(x) } else { return nil } }
            func b(_ i: Int) -> Bool { if case .bool(let x) = v[i] { return x } else { return false } }
            switch table {
            case "age", "cited":
                let row = AnomalyRows.AgeSignal(subject: s(0)!, position: n(1)!, occurredAt: s(2)!, eventId: s(6)!, category: s(3),
                                                verifiedAdult: b(4), approvalRequired: b(5))
                if table == "age" { stored.ageSignals.append(row) } else { stored.citedSignals.append(row) }
            case "decline":
                stored.declines.append(.init(subject: s(0)!, position: n(1)!))
            case "requirement":
                stored.requirements.append(.init(subject: s(0)!, bundleId: s(1)!, position: n(2)!, eligible: b(3),
                                                 parentalConsent: b(4), adultNotification: b(5)))
            case "first":
                stored.firstSeen.append(.init(subject: s(0)!, bundleId: s(1)!, position: n(2)!, versionKey: VersionKey(arrayText: s(3)),
                                              originalVersionKey: VersionKey(arrayText: s(4)), originalPosition: n(5)))
            case "change":
                stored.changes.append(.init(changeId: s(0)!, bundleId: s(1), versionKey: VersionKey(arrayText: s(2)),
                                            description: s(3), occurredAt: s(4)!, position: n(5)!))
            case "question":
                stored.questions.append(.init(questionId: s(0)!, subject: s(1), changeId: s(2), expiresAt: s(3), occurredAt: s(4)!,
                                              position: n(5)!, expiredPosition: n(6)))
            case "acknowledgment":
                stored.acknowledgments.append(.init(subject: s(0)!, position: n(1)!, changeId: s(2)!, handledBy: s(3)!, holds: b(4)))
            case "answer":
                stored.answers.append(.init(subject: s(0)!, position: n(1)!, bundleId: s(2), changeId: s(3), answer: s(4)!))
            case "rescission":
                stored.rescissions.append(.init(position: n(0)!, eventId: s(1)!, subject: s(2)!, bundleId: s(3), rescindedAt: s(4)!,
                                                enforcementAction: s(5), enforcedPosition: n(6), enforcedEventId: s(7),
                                                enforcedAt: s(8), appleItemId: n(9), reapprovedPosition: n(10)))
            case "exception":
                stored.exceptions.append(.init(exceptionId: s(0)!, subject: s(1), appleItemId: n(2), requestedPosition: n(3),
                                               decidedPosition: n(4), approvedPosition: n(5)))
            default:
                continue
            }
        }
        return stored
    }

    /// Stores what the fold added, table by table.
    func store(_ fold: AnomaliesFold, log: String, definition: ProjectionDefinition, on connection: PostgresConnection,
               logger: Logger) async throws {
        func run<Row>(_ file: String, _ rows: [Row], _ columns: [(Row) -> String?]) async throws {
            guard !rows.isEmpty else { return }
            try await connection.watchedQuery(PostgresQuery(
                unsafeSQL: definition.statement(file),
                binds: SignificantChangesStore.binds(log, columns.map { value in TextColumn(rows.map(value)) })), logger: logger)
        }
        func text(_ value: Int64?) -> String? { value.map(String.init) }
        func text(_ value: Bool?) -> String? { value.map { $0 ? "true" : "false" } }
        try await run("age_signals.sql", fold.newAgeSignals, [
            \.subject, { String($0.position) }, \.occurredAt, \.category, { text($0.verifiedAdult) }, { text($0.approvalRequired) },
            \.eventId,
        ])
        try await run("declines.sql", fold.newDeclines, [\.subject, { String($0.position) }])
        try await run("requirements.sql", fold.newRequirements, [
            \.subject, \.bundleId, { String($0.position) }, { text($0.eligible) }, { text($0.parentalConsent) },
            { text($0.adultNotification) },
        ])
        try await run("first_seen.sql", fold.newFirstSeen, [
            \.subject, \.bundleId, { String($0.position) }, { $0.versionKey?.arrayText }, { $0.originalVersionKey?.arrayText },
            { text($0.originalPosition) },
        ])
        try await run("first_seen_original.sql", fold.originalStored, [{ $0.0 }, { $0.1 }, { $0.2.arrayText }, { String($0.3) }])
        try await run("changes.sql", fold.newChanges, [
            \.changeId, \.bundleId, { $0.versionKey?.arrayText }, \.description, \.occurredAt, { String($0.position) },
        ])
        try await run("questions.sql", fold.newQuestions, [
            \.questionId, \.subject, \.changeId, \.expiresAt, \.occurredAt, { String($0.position) }, { text($0.expiredPosition) },
        ])
        try await run("questions_expired.sql", fold.expiredStored, [{ $0.0 }, { String($0.1) }])
        try await run("acknowledgments.sql", fold.newAcknowledgments, [
            \.subject, { String($0.position) }, \.changeId, \.handledBy, { text($0.holds) },
        ])
        try await run("answers.sql", fold.newAnswers, [\.subject, { String($0.position) }, \.bundleId, \.changeId, \.answer])
        try await run("rescissions.sql", fold.newRescissions, [
            { String($0.position) }, \.eventId, \.subject, \.bundleId, \.rescindedAt, \.enforcementAction,
            { text($0.enforcedPosition) }, \.enforcedEventId, \.enforcedAt, { text($0.appleItemId) }, { text($0.reapprovedPosition) },
        ])
        try await run("rescissions_enforced.sql", fold.enforcedStored, [{ String($0.0) }, { String($0.1) }, { $0.2 }, { $0.3 }])
        try await run("rescissions_reapproved.sql", fold.reapprovedStored, [{ String($0.0) }, { String($0.1) }])
        try await run("exceptions.sql", fold.exceptionUpdates, [
            \.exceptionId, \.subject, { text($0.appleItemId) }, { text($0.requestedPosition) }, { text($0.decidedPosition) },
            { text($0.approvedPosition) },
        ])
        try await run("signal_ages.sql", fold.signalAges, [{ String($0.0) }, { $0.1 }, { String($0.2) }, { $0.3 }, { $0.4 }])
        try await run("openings.sql", fold.openings, [
            { String($0.position) }, \.subject, { text($0.age?.position) }, { $0.age?.category }, { text($0.age?.verifiedAdult) },
            { text($0.age?.approvalRequired) }, { text($0.requirement?.position) }, { text($0.consentRequired) },
            { text($0.notificationRequired) }, { $0.change?.changeId }, { text($0.change?.position) }, { $0.word?.answer },
            { text($0.word?.position) }, { text($0.withdrawalPosition) }, { text($0.acknowledgmentPosition) }, \.needsReview,
        ])
        try await run("findings.sql", fold.findings, [
            { String($0.position) }, \.kind, \.eventId, \.subject, \.source, \.detail, { $0.times.0 }, { $0.times.1 },
            { $0.condition?.after }, { $0.condition?.before }, { "{" + $0.evidence.map(String.init).joined(separator: ",") + "}" },
            \.needsReview,
        ])
    }
}
