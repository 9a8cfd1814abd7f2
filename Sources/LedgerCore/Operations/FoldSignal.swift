import Synchronization

/// A count of the folds heard per log (``ChannelListener/folds(settings:logger:)``), and a way to
/// wait for a log's next one: readers that follow a log's findings
/// (``Ledger/followFindings(log:after:kind:backstop:_:)``) read, note the log's count, and wait until
/// it moves, so a new finding wakes them at once, with no connection held while they wait and one
/// listener for all of them. A fold of one log wakes only that log's readers: one tenant's traffic
/// makes no other tenant's streams read.
public final class FoldSignal: Sendable {
    private struct Waiter {
        let log: String
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        /// Moved for every log at once when the listener cannot tell what it missed.
        var everyLog: UInt64 = 0
        var perLog: [String: UInt64] = [:]
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]

        func count(of log: String) -> UInt64 { everyLog &+ perLog[log, default: 0] }
    }

    private let state = Mutex(State())

    /// A signal no fold has moved yet.
    public init() {}

    /// The folds of `log` heard so far (with every time the listener connected again).
    public func count(of log: String) -> UInt64 { state.withLock { $0.count(of: log) } }

    /// How many are waiting on `log` now (for tests and diagnostics).
    public func waiters(on log: String) -> Int { state.withLock { $0.waiters.values.count { $0.log == log } } }

    /// A fold of `log` was heard: wakes the waiters on `log`.
    public func fold(log: String) {
        let waking = state.withLock { state in
            state.perLog[log, default: 0] &+= 1
            let ids = state.waiters.filter { $0.value.log == log }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0)?.continuation }
        }
        for waiter in waking { waiter.resume() }
    }

    /// The listener (re)connected and cannot tell what it missed: moves every log's count and wakes
    /// every waiter.
    public func foldEveryLog() {
        let waking = state.withLock { state in
            state.everyLog &+= 1
            defer { state.waiters.removeAll() }
            return state.waiters.values.map(\.continuation)
        }
        for waiter in waking { waiter.resume() }
    }

    /// Returns once the count of `log` is no longer `seen`, or the task is cancelled.
    public func wait(log: String, after seen: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = self.state.withLock { state in
                    if state.count(of: log) != seen || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(log: log, continuation: continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            self.state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Returns once the count of `log` is no longer `seen`, after `atMost` in any case, or when the
    /// task is cancelled.
    public func wait(log: String, after seen: UInt64, atMost: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(log: log, after: seen) }
            group.addTask { try? await Task.sleep(for: atMost) }
            await group.next()
            group.cancelAll()
        }
    }
}
