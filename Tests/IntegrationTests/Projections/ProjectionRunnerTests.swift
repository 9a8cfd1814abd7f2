import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Projection runner: exactly once, restartable, safe side by side")
struct ProjectionRunnerTests {
    struct Killed: Error {}

    @Test("a runner killed inside a step leaves its checkpoint and tables as they were; a new one resumes with nothing missed or doubled")
    func killedMidStepResumes() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, seed: 21)
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all {
                try await ProjectionTestSupport.installEmpty(projection, client: client)
                var runner = ProjectionRunner(pool: client, chunkSize: 37)
                try await runner.catchUp(projection, log: "sim", maxSteps: 4)
                let before = try await ProjectionRows.live(projection, pool: client)
                let checkpoint = try await ProjectionTestSupport.checkpoint(projection, log: "sim", client: client)
                #expect(checkpoint == 4 * 37)
                // The fifth step dies after folding, before its checkpoint moves.
                runner.beforeCheckpoint = { _, _ in throw Killed() }
                await #expect(throws: Killed.self) { try await runner.step(projection, log: "sim") }
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "sim", client: client) == checkpoint)
                expectSameRows(try await ProjectionRows.live(projection, pool: client), before, "\(projection.name) after the killed step")
                // The tables are exactly the state at the checkpoint.
                let atCheckpoint = try await TimeTravel(pool: client).rows(log: "sim", projection: projection, asOf: .position(checkpoint))
                expectSameRows(before, atCheckpoint, "\(projection.name) at its checkpoint")
                // A new runner resumes.
                runner.beforeCheckpoint = nil
                try await runner.catchUp(projection, log: "sim")
                let resumed = try await ProjectionRows.live(projection, pool: client)
                _ = try await ProjectionRebuilder(pool: client).rebuild(projection)
                expectSameRows(resumed, try await ProjectionRows.live(projection, pool: client), "\(projection.name) resumed vs rebuilt")
            }
        }
    }

    @Test("a `project run` process killed with SIGKILL mid-way is finished by the next run, matching a rebuild")
    func killedProcessResumes() async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, families: 40, days: 40, seed: 22)
        let url = try CLITests.url(db, user: "postgres")
        let subjectState = ProjectionDefinition.named(.subjectState)
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all { try await ProjectionTestSupport.installEmpty(projection, client: client) }
        }
        let process = Process()
        process.executableURL = try CLIRunner.executable()
        process.arguments = ["project", "run", "--chunk-size", "2", "--database-url", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until it has moved the first projection part of the way, then kill it outright.
        var checkpoint: Int64 = 0
        for _ in 0..<400 where checkpoint < 40 {
            try await Task.sleep(for: .milliseconds(25))
            checkpoint = try await db.as(.administrator) { client async throws in
                try await ProjectionTestSupport.checkpoint(subjectState, log: "sim", client: client)
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        try await db.as(.administrator) { client async throws in
            let stopped = try await ProjectionTestSupport.checkpoint(subjectState, log: "sim", client: client)
            #expect(stopped > 0 && stopped < Int64(count), "killed part of the way (at \(stopped) of \(count))")
        }
        let finish = try await CLIRunner.run(["project", "run", "--database-url", url])
        #expect(finish.status == 0, "\(finish.stderr)")
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all {
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "sim", client: client) == Int64(count))
                let finished = try await ProjectionRows.live(projection, pool: client)
                _ = try await ProjectionRebuilder(pool: client).rebuild(projection)
                expectSameRows(finished, try await ProjectionRows.live(projection, pool: client), "\(projection.name) after the kill")
            }
        }
    }

    @Test("two runners at once give the same rows as one, and fold each event once")
    func twoRunnersAgree() async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, seed: 23)
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all { try await ProjectionTestSupport.installEmpty(projection, client: client) }
        }
        // Two pools, as two processes would have; small steps so they contend all the time.
        async let first: Void = db.as(.administrator) { client async throws in
            try await Self.runUntilDone(ProjectionRunner(pool: client, chunkSize: 5), count: count)
        }
        async let second: Void = db.as(.administrator) { client async throws in
            try await Self.runUntilDone(ProjectionRunner(pool: client, chunkSize: 7), count: count)
        }
        _ = try await (first, second)
        try await db.as(.administrator) { client async throws in
            for projection in ProjectionDefinition.all {
                let folded = try await client.int(PostgresQuery(unsafeSQL: "SELECT events_folded FROM \(projection.name).checkpoints"))
                let expected = try await client.int(PostgresQuery(unsafeSQL:
                    "SELECT count(*) FROM ledger.events WHERE type = ANY (ARRAY['\(projection.reads.joined(separator: "','"))'])"))
                #expect(folded == expected, "\(projection.name): each event folded once")
                let together = try await ProjectionRows.live(projection, pool: client)
                _ = try await ProjectionRebuilder(pool: client).rebuild(projection)
                expectSameRows(together, try await ProjectionRows.live(projection, pool: client), "\(projection.name): two runners vs rebuild")
            }
        }
    }

    @Test("two `run` passes started at once on a database with nothing built both succeed, and agree with a rebuild")
    func twoFirstRunsAtOnce() async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, families: 20, days: 20, seed: 28)
        async let first: Void = db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        async let second: Void = db.as(.administrator) { client async throws in try await ProjectionRunner(pool: client).runOnce() }
        _ = try await (first, second)
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()  // whatever either left to the other
            for projection in ProjectionDefinition.all {
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "sim", client: client) == Int64(count))
                let rows = try await ProjectionRows.live(projection, pool: client)
                _ = try await ProjectionRebuilder(pool: client).rebuild(projection)
                expectSameRows(rows, try await ProjectionRows.live(projection, pool: client), "\(projection.name)")
            }
        }
    }

    /// Steps every projection until all are at the head (a busy projection is retried).
    static func runUntilDone(_ runner: ProjectionRunner, count: Int) async throws {
        var done = Set<String>()
        while done.count < ProjectionDefinition.all.count {
            for projection in ProjectionDefinition.all where !done.contains(projection.name) {
                if case .upToDate(let position) = try await runner.step(projection, log: "sim"), position == Int64(count) {
                    done.insert(projection.name)
                }
            }
        }
    }

    @Test("status shows the lag; a changed definition is detected and rebuilt by `run`")
    func statusAndDefinitionChange() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 8, days: 10, seed: 24)
        try await db.as(.administrator) { client async throws in
            var statuses = try await ProjectionStatus.all(pool: client)
            #expect(statuses.allSatisfy { $0.state == .missing })
            try await ProjectionRunner(pool: client).runOnce()
            statuses = try await ProjectionStatus.all(pool: client)
            #expect(statuses.allSatisfy { $0.state == .current && $0.logs.count == 1 && $0.logs[0].lag == 0 })

            // New events: lag until the next run.
            try await ProjectionTestSupport.appendSimulated(db, log: "second", families: 3, days: 3, seed: 25)
            statuses = try await ProjectionStatus.all(pool: client)
            #expect(statuses.allSatisfy { $0.logs.count == 2 && $0.logs.contains { $0.log == "second" && $0.lag > 0 } })

            // A build made by another definition is stale, and `run` rebuilds it.
            try await client.query("UPDATE pending.definition SET definition_hash = 'an-older-definition'")
            statuses = try await ProjectionStatus.all(pool: client)
            #expect(statuses.first { $0.projection == "pending" }?.state == .stale(builtWith: "an-older-definition"))
            let notes = NoteCollector()
            try await ProjectionRunner(pool: client).runOnce(note: { notes.add($0) })
            #expect(notes.lines.contains { $0.contains("pending: its definition changed; rebuilding it") })
            statuses = try await ProjectionStatus.all(pool: client)
            #expect(statuses.allSatisfy { $0.state == .current && $0.logs.allSatisfy { $0.lag == 0 } })
        }
    }

    @Test("a follower is woken by NOTIFY when events are appended, well before its polling interval")
    func followerWakesOnNotify() async throws {
        let db = try await TestDatabase.create()
        let first = try await ProjectionTestSupport.appendSimulated(db, families: 5, days: 5, seed: 26)
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            let subjectState = ProjectionDefinition.named(.subjectState)
            let follower = ProjectionFollower(runner: ProjectionRunner(pool: client), pollInterval: .seconds(600))
            let started = ContinuousClock.now
            async let following: Void = follower.follow(shouldStop: {
                try await ProjectionTestSupport.checkpoint(subjectState, log: "sim", client: client) > Int64(first)
            })
            try await Task.sleep(for: .milliseconds(300))
            try await ProjectionTestSupport.appendSimulated(db, families: 5, days: 5, seed: 27)
            try await following
            #expect(ContinuousClock.now - started < .seconds(60), "woken by the notification, not the 10-minute poll")
        }
    }
}

extension ProjectionRunnerTests {
    @Test("a follower whose catch-up pass fails tries again at the next wake, and folds everything once")
    func followerRetriesAFailedPass() async throws {
        let db = try await TestDatabase.create()
        let first = try await ProjectionTestSupport.appendSimulated(db, families: 4, days: 4, seed: 29)
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            let subjectState = ProjectionDefinition.named(.subjectState)
            var runner = ProjectionRunner(pool: client)
            let failures = NoteCollector()
            runner.beforeCheckpoint = { projection, through in
                // The first step past the first history fails once, as a dropped connection would
                // (translated: the database unavailable, a passing failure the follower retries).
                if projection == "subject_state", through > Int64(first), failures.lines.isEmpty {
                    failures.add("failed at \(through)")
                    throw LedgerError(.databaseUnavailable, "the connection was lost")
                }
            }
            let notes = NoteCollector()
            let follower = ProjectionFollower(runner: runner, pollInterval: .seconds(1))
            async let following: Void = follower.follow(note: { notes.add($0) }, shouldStop: {
                try await ProjectionTestSupport.checkpoint(subjectState, log: "sim", client: client) > Int64(first)
            })
            try await Task.sleep(for: .milliseconds(300))
            let second = try await ProjectionTestSupport.appendSimulated(db, families: 4, days: 4, seed: 30)
            try await following
            #expect(failures.lines.count == 1)
            #expect(notes.lines.contains { $0.hasPrefix("a catch-up pass failed") })
            let folded = try await client.int("SELECT events_folded FROM subject_state.checkpoints")
            let expected = try await client.int(PostgresQuery(unsafeSQL:
                "SELECT count(*) FROM ledger.events WHERE type = ANY (ARRAY['\(subjectState.reads.joined(separator: "','"))'])"))
            #expect(folded == expected, "each event folded once (\(first + second) events in the log)")
        }
    }
}

/// Collects notes from a @Sendable callback.
final class NoteCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    func add(_ line: String) { lock.lock(); collected.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return collected }
}

@Suite("Projection rebuild: readers never see a half-built model")
struct ProjectionRebuildSwapTests {
    @Test("a reader polling during a rebuild sees the old rows or the new ones, never a count in between")
    func readersSeeOldOrNew() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 40, days: 30, seed: 41)
        let projection = ProjectionDefinition.named(.subjectState)
        let (old, new, seen) = try await db.as(.administrator) { client async throws in
            // The live model stands part of the way, so the rebuilt one differs from it.
            try await ProjectionTestSupport.installEmpty(projection, client: client)
            try await ProjectionRunner(pool: client, chunkSize: 100).catchUp(projection, log: "sim", maxSteps: 3)
            let old = try await client.int("SELECT count(*) FROM subject_state.features")
            let rebuild = Task {
                try await ProjectionRebuilder(pool: client, chunkSize: 40).rebuild(projection)
            }
            var seen = Set<Int64>()
            for _ in 0..<10_000 {  // until the swap shows (bounded, should the rebuild fail)
                // Any error fails the test: a reader during the swap must find the old table or the new
                // one, never none (42P01; ProjectionSchema.swapIn keeps the live schema for that).
                seen.insert(try await client.int("SELECT count(*) FROM subject_state.features"))
                if seen.count > 1 { break }
                try await Task.sleep(for: .milliseconds(2))
            }
            _ = try await rebuild.value
            // A few more reads after the swap.
            for _ in 0..<5 { seen.insert(try await client.int("SELECT count(*) FROM subject_state.features")) }
            let new = try await client.int("SELECT count(*) FROM subject_state.features")
            return (old, new, seen)
        }
        #expect(old < new)
        #expect(seen == [old, new], "a reader saw \(seen.sorted()) (old \(old), new \(new))")
    }

    @Test("a pass visits only the logs that grew: an idle pass over many logs folds nothing and opens no step per log")
    func idlePassVisitsNoLog() async throws {
        let db = try await TestDatabase.create()
        for log in ["a", "b", "c"] { try await CheckpointTests.append(db, 3, log: log) }
        try await db.as(.administrator) { client async throws in
            let runner = ProjectionRunner(pool: client)
            try await runner.runOnce()
            for projection in ProjectionDefinition.all { #expect(try await runner.logsBehind(projection) == [], "\(projection.name)") }
        }
        try await CheckpointTests.append(db, 2, log: "b")
        try await db.as(.administrator) { client async throws in
            let runner = ProjectionRunner(pool: client)
            for projection in ProjectionDefinition.all { #expect(try await runner.logsBehind(projection) == ["b"], "\(projection.name)") }
            try await runner.runOnce()
            for projection in ProjectionDefinition.all {
                #expect(try await runner.logsBehind(projection) == [], "\(projection.name)")
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "b", client: client) == 5, "\(projection.name)")
            }
        }
    }
}
