import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

extension PostgresConnection {
    /// `connect(configuration:id:logger:)`, given up after `limit`.
    ///
    /// How far PostgresNIO's `connectTimeout` reaches (the TCP handshake; in 1.33.2 also the
    /// startup) is PostgresNIO's to change, and its timeout reads like a wrong address. Here the
    /// attempt races a timer of our own: a server that accepts the socket and never answers (hung,
    /// stopped with SIGSTOP, a half-open proxy) fails with ``ConnectTimedOut`` after `limit`
    /// whatever PostgresNIO does, and a connection that still arrives later is closed as soon as
    /// it does (decision 0027).
    static func connect(configuration: Configuration, id: ID, logger: Logger, within limit: Duration) async throws -> PostgresConnection {
        // PostgresNIO's own timeout (10 s by default) must not win the race with ours: on a busy
        // machine it fired first and the error read "the connection timed out" instead of ours.
        let (seconds, attoseconds) = limit.components
        let ours = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let configuration = {
            var configuration = configuration
            configuration.options.connectTimeout = max(configuration.options.connectTimeout, ours + .seconds(5))
            return configuration
        }()
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
