import Synchronization

/// A count of the folds heard (``ChannelListener/folds(settings:logger:)``), and a way to wait for
/// the next one: readers that follow the findings (``Ledger/followFindings(log:after:kind:backstop:_:)``)
/// read, note the count, and wait until it moves, so a new finding wakes them at once, with no
/// connection held while they wait and one listener for all of them.
public final class FoldSignal: Sendable {
    private struct State {
        var count: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// A signal no fold has moved yet.
    public init() {}

    /// The folds heard so far.
    public var count: UInt64 { state.withLock { $0.count } }

    /// A fold was heard (or the listener cannot tell what it missed): wakes every waiter.
    public func fold() {
        let waiting = state.withLock { state in
            state.count &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once the count is no longer `seen`, or the task is cancelled.
    public func wait(after seen: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = self.state.withLock { state in
                    if state.count != seen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns once the count is no longer `seen`, after `atMost` in any case, or when the task is
    /// cancelled.
    public func wait(after seen: UInt64, atMost: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait(after: seen) }
            group.addTask { try? await Task.sleep(for: atMost) }
            await group.next()
            group.cancelAll()
        }
    }
}
