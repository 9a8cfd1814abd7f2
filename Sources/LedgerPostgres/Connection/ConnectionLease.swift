import Foundation
import LedgerCore
import NIOConcurrencyHelpers
import PostgresNIO

/// A connection taken from a `PostgresClient` for as long as the taker needs it, with a bounded
/// wait for it.
///
/// PostgresNIO's pool waits for a connection for as long as it takes to make one (about a minute
/// when the server is down). A ledger request must instead hear "unavailable" within
/// ``LedgerPool/waitLimit`` when the database is down, and keep waiting when it is only busy.
/// The pool's own `withConnection` is run in a task of its own that hands the connection over and
/// holds the lease until ``giveBack()``; whichever comes first (the connection, the wait running
/// out with the database unreachable, the waiter being cancelled) settles the wait, and a
/// connection that arrives too late goes straight back to the pool.
final class ConnectionLease: Sendable {
    /// The leased connection; valid until ``giveBack()``.
    let connection: PostgresConnection
    private let returned: NIOLockedValueBox<CheckedContinuation<Void, Never>?>

    private init(connection: PostgresConnection, returned: CheckedContinuation<Void, Never>) {
        self.connection = connection
        self.returned = NIOLockedValueBox(returned)
    }

    /// Returns the connection to the pool (once; later calls do nothing).
    func giveBack() {
        returned.withLockedValue { continuation in
            let taken = continuation
            continuation = nil
            return taken
        }?.resume()
    }

    /// Takes a connection from `client`. Every `limit` without one, asks `keepWaiting` (nil: no)
    /// and throws `timeout()` when it says no; when it says yes but `busyLimit` has passed since
    /// the wait began, throws `busy()` (nil: waits on while `keepWaiting` says yes). Throws
    /// `CancellationError` when the calling task is cancelled while waiting.
    static func take(from client: PostgresClient, within limit: Duration, busyLimit: Duration? = nil,
                     keepWaiting: (@Sendable () async -> Bool)?,
                     timeout: @escaping @Sendable () -> any Error,
                     busy: @escaping @Sendable () -> any Error = { CancellationError() }) async throws -> ConnectionLease {
        let wait = Wait()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ConnectionLease, any Error>) in
                guard wait.begin(continuation) else { return }
                let holder = Task {
                    do {
                        // A connection the server has just closed (a restart) is not handed out:
                        // PostgresNIO 1.33.2 drops a query written to a closed channel without ever
                        // failing it, so the caller's first query would wait for ever. The pool
                        // notices the close and replaces it; take the next one.
                        var delivered = false
                        while !delivered, !Task.isCancelled {
                            delivered = try await client.withConnection { connection in
                                if connection.isClosed { return false }
                                await withCheckedContinuation { (returned: CheckedContinuation<Void, Never>) in
                                    let lease = ConnectionLease(connection: connection, returned: returned)
                                    if !wait.settle(.success(lease)) { lease.giveBack() }
                                }
                                return true
                            }
                            if !delivered { try await Task.sleep(for: .milliseconds(10)) }
                        }
                    } catch {
                        wait.settle(.failure(error))
                    }
                }
                let timer = Task {
                    let start = ContinuousClock.now
                    while true {
                        try? await Task.sleep(for: limit)
                        if Task.isCancelled { return }
                        if let keepWaiting, await keepWaiting() {
                            guard let busyLimit, ContinuousClock.now - start >= busyLimit else { continue }
                            wait.settle(.failure(busy()))
                            return
                        }
                        wait.settle(.failure(timeout()))
                        return
                    }
                }
                wait.attach(holder: holder, timer: timer)
            }
        } onCancel: {
            wait.settle(.failure(CancellationError()))
        }
    }

    /// Who settles a wait first: the lease, the timer or cancellation.
    private final class Wait: Sendable {
        private struct State {
            var continuation: CheckedContinuation<ConnectionLease, any Error>?
            var settled = false
            var holder: Task<Void, Never>?
            var timer: Task<Void, Never>?
            var failed = false
        }
        private let state = NIOLockedValueBox(State())

        /// Starts waiting; false (and the continuation already failed) when cancelled before.
        func begin(_ continuation: CheckedContinuation<ConnectionLease, any Error>) -> Bool {
            let cancelled = state.withLockedValue { state -> Bool in
                if state.settled { return true }
                state.continuation = continuation
                return false
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        func attach(holder: Task<Void, Never>, timer: Task<Void, Never>) {
            let settled = state.withLockedValue { state -> (failed: Bool, done: Bool) in
                state.holder = holder
                state.timer = timer
                return (state.failed, state.settled)
            }
            if settled.done {
                timer.cancel()
                if settled.failed { holder.cancel() }
            }
        }

        /// Settles the wait with `result` if nothing did before; true when this call settled it.
        @discardableResult
        func settle(_ result: Result<ConnectionLease, any Error>) -> Bool {
            let taken = state.withLockedValue { state -> (CheckedContinuation<ConnectionLease, any Error>?, Task<Void, Never>?, Task<Void, Never>?)? in
                if state.settled { return nil }
                state.settled = true
                if case .failure = result { state.failed = true }
                let taken = (state.continuation, state.holder, state.timer)
                state.continuation = nil
                return taken
            }
            guard let (continuation, holder, timer) = taken else { return false }
            timer?.cancel()
            if case .failure = result { holder?.cancel() }
            continuation?.resume(with: result)
            return true
        }
    }
}
