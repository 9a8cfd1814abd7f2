import LedgerCore
@testable import LedgerPostgres
import Synchronization
import Testing

/// The group commit actor over a scripted store: the queue and the decisions joined, no database.
@Suite("Group commit over a scripted store")
struct GroupCommitQueueingTests {
    /// A store whose first call waits until the test lets it go, and which then answers as
    /// `script` says.
    final class HeldStore: Sendable {
        let scripted: ScriptedStore
        private let called: AsyncStream<Void>.Continuation
        let calls: AsyncStream<Void>
        private let release: AsyncStream<Void>.Continuation
        private let released: AsyncStream<Void>
        private let first = Mutex(true)

        init(script: GroupCommitBatchTests.Script) {
            scripted = ScriptedStore(script: script)
            (calls, called) = AsyncStream.makeStream()
            (released, release) = AsyncStream.makeStream()
        }

        func letGo() { release.yield() }

        @Sendable func call(_ mode: AppendMode, log: String, requests: [AppendRequest]) async throws -> [Result<AppendResult, any Error>] {
            called.yield()
            if first.withLock({ was in defer { was = false }; return was }) {
                for await _ in released { break }
            }
            return try await scripted.call(mode, log: log, requests: requests)
        }
    }

    /// Sends request 0 alone, then requests 1 to 3 while its call is held; returns each answer.
    static func run(script: GroupCommitBatchTests.Script) async throws -> (calls: [String], answers: [Result<AppendResult, any Error>]) {
        let store = HeldStore(script: script)
        let commit = GroupCommit(maxBatch: 10, maxInFlight: 1, store: store.call)
        let events = try (0..<4).map { try QueuedEvents.event(stream: "subject-p_\($0)") }
        var answers: [Result<AppendResult, any Error>] = []
        await withTaskGroup(of: (Int, Result<AppendResult, any Error>).self) { group in
            let send = { @Sendable (index: Int) async -> (Int, Result<AppendResult, any Error>) in
                do { return (index, .success(try await commit.append(log: "acme", event: events[index]))) } catch { return (index, .failure(error)) }
            }
            group.addTask { await send(0) }
            for await _ in store.calls { break }   // request 0's call has begun and is held
            for index in 1...3 { group.addTask { await send(index) } }
            while await commit.waiting(log: "acme") < 3 { await Task.yield() }
            store.letGo()
            var byIndex: [Int: Result<AppendResult, any Error>] = [:]
            for await (index, answer) in group { byIndex[index] = answer }
            answers = (0..<4).map { byIndex[$0]! }
        }
        return (store.scripted.calls, answers)
    }

    @Test("requests that come while a call is under way wait, then go together in one grouped call")
    func gathered() async throws {
        let (calls, answers) = try await Self.run(script: .init())
        #expect(calls == ["single 0", "grouped 1 2 3"])
        for answer in answers { #expect(throws: Never.self) { _ = try answer.get() } }
    }

    @Test("the database lost under the grouped call: every waiter of it fails with that error, none is tried alone")
    func lost() async throws {
        let (calls, answers) = try await Self.run(script: .init(lostFrom: 1))
        #expect(calls == ["single 0", "grouped 1 2 3"])
        #expect(throws: Never.self) { _ = try answers[0].get() }
        for answer in answers.dropFirst() {
            let error = #expect(throws: LedgerError.self) { _ = try answer.get() }
            #expect(error?.code == .databaseUnavailable)
        }
    }

    @Test("one bad event in the grouped call fails alone; the others are stored")
    func refused() async throws {
        let (calls, answers) = try await Self.run(script: .init(bad: [2]))
        #expect(calls == ["single 0", "grouped 1 2 3", "single 1", "single 2", "single 3"])
        let error = #expect(throws: LedgerError.self) { _ = try answers[2].get() }
        #expect(error?.code == .wrongExpectedVersion)
        for index in [0, 1, 3] { #expect(throws: Never.self) { _ = try answers[index].get() } }
    }
}
