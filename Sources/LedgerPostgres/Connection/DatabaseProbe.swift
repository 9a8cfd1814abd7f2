import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Whether the database accepts connections right now: what tells a pool that is slow to hand
/// out a connection because it is busy (keep waiting) from one whose database is down or
/// restarting (answer `database-unavailable` now).
///
/// One plain connection attempt (1 s to connect, 2 s in all with the server's answer) answers it; the answer is kept for a second, and
/// however many callers ask at once, one attempt is made.
final class DatabaseProbe: Sendable {
    private struct State {
        var answer: (at: ContinuousClock.Instant, reachable: Bool)?
        var attempt: Task<Bool, Never>?
    }
    let settings: ConnectionSettings
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    init(settings: ConnectionSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// True when a connection to the database could be opened within the last second.
    func reachable() async -> Bool {
        let now = ContinuousClock.now
        let known = state.withLockedValue { state -> Result<Bool, Never>? in
            guard let answer = state.answer, now - answer.at < .seconds(1) else { return nil }
            return .success(answer.reachable)
        }
        if case .success(let reachable) = known { return reachable }
        let attempt = state.withLockedValue { state -> Task<Bool, Never> in
            if let attempt = state.attempt { return attempt }
            // The attempt records its own answer, once, whoever waits for it.
            let attempt = Task {
                let reachable = await self.connectOnce()
                self.state.withLockedValue { state in
                    state.answer = (ContinuousClock.now, reachable)
                    state.attempt = nil
                }
                return reachable
            }
            state.attempt = attempt
            return attempt
        }
        return await attempt.value
    }

    private func connectOnce() async -> Bool {
        do {
            var configuration = try settings.connectionConfiguration()
            configuration.options.connectTimeout = .seconds(1)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger, within: .seconds(2))
            try? await connection.close()
            return true
        } catch {
            return false
        }
    }
}
