import Foundation
import LedgerCore
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

extension PostgresConnection {
    /// `query(_:logger:)`, but one that cannot wait for ever on a connection the server closed.
    ///
    /// PostgresNIO 1.33.2 writes a query to its channel without a promise; when the channel has
    /// just closed (the server stopped or restarted), the write fails unseen and the query never
    /// completes (docs/upstream/postgres-nio-lease-leak.md). Every query of LedgerPostgres goes
    /// through here: it fails at once on a closed connection, and a watcher checks the connection
    /// every 250 ms while the query is outstanding, failing it with `database-unavailable` if the
    /// connection closed under it. The query itself is left to PostgresNIO, which fails it too
    /// when the close reached it in time.
    @discardableResult
    func watchedQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        guard !isClosed else { throw Self.closedUnderQuery }
        let outcome = Outcome()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresRowSequence, any Error>) in
            outcome.attach(continuation)
            let running = Task {
                do { outcome.settle(.success(try await self.query(query, logger: logger))) } catch { outcome.settle(.failure(error)) }
            }
            let watcher = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    guard let self else { return }
                    if self.isClosed {
                        outcome.settle(.failure(Self.closedUnderQuery))
                        return
                    }
                }
            }
            outcome.whenSettled { running.cancel(); watcher.cancel() }
        }
    }

    static var closedUnderQuery: LedgerError {
        DatabaseErrors.unavailable("the database closed the connection (it stopped or restarted)")
    }

    /// The first of a query's answer and its connection's closing.
    private final class Outcome: Sendable {
        private struct State {
            var continuation: CheckedContinuation<PostgresRowSequence, any Error>?
            var result: Result<PostgresRowSequence, any Error>?
            var onSettled: (@Sendable () -> Void)?
            var settled = false
        }
        private let state = NIOLockedValueBox(State())

        func attach(_ continuation: CheckedContinuation<PostgresRowSequence, any Error>) {
            state.withLockedValue { $0.continuation = continuation }
        }

        func whenSettled(_ body: @escaping @Sendable () -> Void) {
            let settled = state.withLockedValue { state -> Bool in
                if state.settled { return true }
                state.onSettled = body
                return false
            }
            if settled { body() }
        }

        func settle(_ result: Result<PostgresRowSequence, any Error>) {
            let taken = state.withLockedValue { state -> (CheckedContinuation<PostgresRowSequence, any Error>?, (@Sendable () -> Void)?)? in
                if state.settled { return nil }
                state.settled = true
                defer { state.continuation = nil; state.onSettled = nil }
                return (state.continuation, state.onSettled)
            }
            guard let (continuation, onSettled) = taken else { return }
            continuation?.resume(with: result)
            onSettled?()
        }
    }
}
