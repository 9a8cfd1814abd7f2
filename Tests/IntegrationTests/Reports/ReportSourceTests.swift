import Foundation
import LedgerCore
@testable import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Synchronization
import Testing
import LedgerSimulation

/// The lines a report's `note` hears, collected across tasks.
final class NoteLines: Sendable {
    private let lines = Mutex<[String]>([])
    /// Collects a line.
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    /// The lines heard since the last take, emptied.
    func take() -> [String] { lines.withLock { let taken = $0; $0.removeAll(); return taken } }
}

/// A report's bytes are the same whichever way ``ReportSource`` reaches its position (decision
/// 0021): the live tables at the position, the live tables behind it with the rest folded on top,
/// or time travel from position 0. Each test checks that the way it names was the way taken.
@Suite("Report sources: the same bytes whichever way")
struct ReportSourceTests {
    /// The demo story, the regulator scenario and a simulated history in one log each.
    static func appendHistories(_ db: TestDatabase) async throws {
        try await DemoStoryProjectionTests.appendStory(db)
        try await RegulatorScenario.append(db)
        try await ProjectionTestSupport.appendSimulated(db, log: "sim", families: 8, days: 20, seed: 15)
    }

    /// Builds `names` empty and folds each log only up to `through(log)` (the live tables behind).
    static func foldPartly(_ db: TestDatabase, names: [ProjectionDefinition.Name], through: [String: Int64]) async throws {
        try await db.as(.administrator) { client async throws in
            for name in names {
                let projection = ProjectionDefinition.named(name)
                try await ProjectionTestSupport.installEmpty(projection, client: client)
                for (log, position) in through {
                    _ = try await ProjectionRunner(pool: client, chunkSize: position).step(projection, log: log)
                    #expect(try await ProjectionTestSupport.checkpoint(projection, log: log, client: client) == position)
                }
            }
        }
    }

    static func catchUp(_ db: TestDatabase) async throws {
        try await db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
    }

    /// The register's bytes; `notes` hears how `consent_register` was read (it reads `report_facts`
    /// too, for its withdrawals, filtered by position as the regulator report does, decision 0084:
    /// those ways are the regulator test's).
    static func register(_ db: TestDatabase, log: String, asOf: Int64? = nil, subject: String? = nil,
                         notes: NoteLines) async throws -> [UInt8] {
        try await db.as(.auditor) { client async throws in
            try await ConsentRegisterReport.compute(.init(log: log, asOf: asOf, subject: subject), pool: client,
                                                    note: { if $0.hasPrefix("consent_register") { notes.add($0) } }).json
        }
    }

    static func regulator(_ db: TestDatabase, _ parameters: RegulatorReport.Parameters, notes: NoteLines) async throws -> [UInt8] {
        try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(parameters, pool: client, note: { notes.add($0) }).json
        }
    }

    static let simPeriod = RegulatorReport.Parameters(log: "sim", jurisdiction: "US", from: AsOf.date("2026-01-01T00:00:00Z")!,
                                                      to: AsOf.date("2028-01-01T00:00:00Z")!)

    /// Expects `count` notes on how projections were reached (progress lines and the integrity
    /// check's end aside), each naming `way`.
    static func expectWay(_ lines: [String], _ way: String, count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let notes = lines.filter { !$0.hasPrefix("folded ") && !$0.hasPrefix("integrity: ") }
        #expect(notes.count == count, "\(notes)", sourceLocation: sourceLocation)
        #expect(notes.allSatisfy { $0.contains(way) }, "\(notes)", sourceLocation: sourceLocation)
    }

    @Test("the consent register: time travel from 0, live behind with the rest folded on top, live at the head")
    func consentRegister() async throws {
        let db = try await TestDatabase.create()
        try await Self.appendHistories(db)
        let notes = NoteLines()
        let logs = ["demo", RegulatorScenario.log, "sim"]
        var travelled: [String: [UInt8]] = [:]
        for log in logs {
            travelled[log] = try await Self.register(db, log: log, notes: notes)
            Self.expectWay(notes.take(), "is not built", count: 1)
        }
        let earlyDemo = try await Self.register(db, log: "demo", asOf: 6, notes: notes)
        _ = notes.take()
        let simHead = try await db.as(.auditor) { client async throws in
            try await EventStore(pool: client).requireHead(log: "sim").position
        }
        try await Self.foldPartly(db, names: [.consentRegister], through: ["demo": 5, RegulatorScenario.log: 14, "sim": simHead / 2])
        for log in logs {
            #expect(try await Self.register(db, log: log, notes: notes) == travelled[log], "\(log), live behind")
            Self.expectWay(notes.take(), "folding positions", count: 1)
        }
        // Behind an earlier position too: folded from 5 to 6 on top.
        #expect(try await Self.register(db, log: "demo", asOf: 6, notes: notes) == earlyDemo)
        Self.expectWay(notes.take(), "folding positions 6 to 6", count: 1)
        try await Self.catchUp(db)
        for log in logs {
            #expect(try await Self.register(db, log: log, notes: notes) == travelled[log], "\(log), live at the head")
            Self.expectWay(notes.take(), "reading the live tables", count: 1)
        }
        // Older than the live tables: time travel, as before.
        #expect(try await Self.register(db, log: "demo", asOf: 6, notes: notes) == earlyDemo)
        Self.expectWay(notes.take(), "has folded past position 6", count: 1)
    }

    @Test("the consent register of one subject: the register's rows filtered, whichever way")
    func consentRegisterOfASubject() async throws {
        let db = try await TestDatabase.create()
        try await Self.appendHistories(db)
        let notes = NoteLines()
        let travelled = try await Self.register(db, log: "demo", subject: DemoHistory.subject, notes: notes)
        Self.expectWay(notes.take(), "is not built", count: 1)
        let rows = try JSONParser.parse(travelled)["rows"]?.arrayValue ?? []
        #expect(rows.count == 2 && rows.allSatisfy { $0["subject"]?.stringValue == DemoHistory.subject })
        try await Self.foldPartly(db, names: [.consentRegister], through: ["demo": 6])
        #expect(try await Self.register(db, log: "demo", subject: DemoHistory.subject, notes: notes) == travelled)
        Self.expectWay(notes.take(), "folding positions 7 to 11", count: 1)
        try await Self.catchUp(db)
        #expect(try await Self.register(db, log: "demo", subject: DemoHistory.subject, notes: notes) == travelled)
        Self.expectWay(notes.take(), "reading the live tables", count: 1)
    }

    @Test("the regulator report: time travel from 0, live behind with the rest folded on top, live at and past the position")
    func regulator() async throws {
        let db = try await TestDatabase.create()
        try await Self.appendHistories(db)
        let notes = NoteLines()
        let scenario = RegulatorReportTests.parameters(), early = RegulatorReportTests.parameters(asOf: 14)
        let travelled = (scenario: try await Self.regulator(db, scenario, notes: notes),
                         early: try await Self.regulator(db, early, notes: notes),
                         sim: try await Self.regulator(db, Self.simPeriod, notes: notes))
        Self.expectWay(notes.take(), "is not built", count: 6)
        let simHead = try await db.as(.auditor) { client async throws in
            try await EventStore(pool: client).requireHead(log: "sim").position
        }
        try await Self.foldPartly(db, names: [.reportFacts, .anomalies], through: [RegulatorScenario.log: 9, "sim": simHead / 3])
        #expect(try await Self.regulator(db, scenario, notes: notes) == travelled.scenario)
        #expect(try await Self.regulator(db, early, notes: notes) == travelled.early)
        #expect(try await Self.regulator(db, Self.simPeriod, notes: notes) == travelled.sim)
        Self.expectWay(notes.take(), "folding positions", count: 6)
        try await Self.catchUp(db)
        #expect(try await Self.regulator(db, scenario, notes: notes) == travelled.scenario)
        #expect(try await Self.regulator(db, early, notes: notes) == travelled.early)
        #expect(try await Self.regulator(db, Self.simPeriod, notes: notes) == travelled.sim)
        // Past the position too: report_facts and anomalies are read filtered by position.
        Self.expectWay(notes.take(), "reading the live tables", count: 6)
    }

    @Test("the dossier replays the subject's events whatever the live projections hold: the same bytes")
    func dossier() async throws {
        let db = try await TestDatabase.create()
        try await Self.appendHistories(db)
        func dossier(asOf: Int64? = nil) async throws -> [UInt8] {
            try await db.as(.auditor) { client async throws in
                try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, asOf: asOf, pool: client).json
            }
        }
        let unbuilt = (head: try await dossier(), early: try await dossier(asOf: 6))
        try await Self.foldPartly(db, names: [.subjectState, .consentRegister], through: ["demo": 5])
        #expect(try await dossier() == unbuilt.head)
        #expect(try await dossier(asOf: 6) == unbuilt.early)
        try await Self.catchUp(db)
        #expect(try await dossier() == unbuilt.head)
        #expect(try await dossier(asOf: 6) == unbuilt.early)
        #expect(unbuilt.head != unbuilt.early)
    }

    @Test("the rule: at the position live; behind it live then the rest; past it time travel unless rows are final; a stale build time travel")
    func rule() throws {
        let projection = ProjectionDefinition.named(.consentRegister)
        let hash = projection.definitionHash
        #expect(ReportSource.way(to: 10, builtHash: hash, checkpoint: 10, projection: projection, positionFinal: false) == .live)
        #expect(ReportSource.way(to: 10, builtHash: hash, checkpoint: 4, projection: projection, positionFinal: false)
                == .liveThenFold(checkpoint: 4))
        #expect(ReportSource.way(to: 10, builtHash: hash, checkpoint: 12, projection: projection, positionFinal: false) == .timeTravel)
        #expect(ReportSource.way(to: 10, builtHash: hash, checkpoint: 12, projection: projection, positionFinal: true) == .live)
        #expect(ReportSource.way(to: 10, builtHash: "stale", checkpoint: 10, projection: projection, positionFinal: true) == .timeTravel)
        #expect(ReportSource.way(to: 10, builtHash: nil, checkpoint: 0, projection: projection, positionFinal: false) == .timeTravel)
    }
}
