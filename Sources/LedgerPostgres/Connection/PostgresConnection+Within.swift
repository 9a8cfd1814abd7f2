import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

extension PostgresConnection {
    /// `connect(configuration:id:logger:)`, given up after `limit`.
    ///
    /// PostgresNIO's `connectTimeout` bounds the TCP handshake only: a server that accepts the
    /// socket and never answers the startup message (hung, stopped with SIGSTOP, a half-open
    /// proxy) keeps `connect` waiting for ever. Here the attempt races a timer; when the timer
    /// wins, ``ConnectTimedOut`` is thrown at once, and a connection that still arrives later is
    /// closed as soon as it does.
    static func connect(configuration: Configuration, id: ID, logger: Logger, within limit: Duration) async throws -> PostgresConnection {
        let race = Race()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection, any Error>) in
            race.attach(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                race.settle(.failure(ConnectTimedOut(limit: limit)))
            }
            Task {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                    if !race.settle(.success(connection)) { try? await connection.close() }
                } catch {
                    race.settle(.failure(error))
                }
                timer.cancel()
            }
        }
    }

    /// No answer to a connection attempt within its limit.
    struct ConnectTimedOut: Error {
        /// The limit that passed.
        let limit: Duration
    }

    /// The first of a connection and the timer; whoever comes second is told so.
    private final class Race: Sendable {
        private let state = NIOLockedValueBox<(continuation: CheckedContinuation<PostgresConnection, any Error>?, settled: Bool)>((nil, false))

        func attach(_ continuation: CheckedContinuation<PostgresConnection, any Error>) {
            state.withLockedValue { $0.continuation = continuation }
        }

        /// Resumes the waiter with `result` if nothing did yet; false when too late.
        @discardableResult
        func settle(_ result: Result<PostgresConnection, any Error>) -> Bool {
            let continuation = state.withLockedValue { state -> CheckedContinuation<PostgresConnection, any Error>?? in
                if state.settled { return .none }
                state.settled = true
                defer { state.continuation = nil }
                return .some(state.continuation)
            }
            guard case .some(let waiting) = continuation else { return false }
            waiting?.resume(with: result)
            return true
        }
    }
}
