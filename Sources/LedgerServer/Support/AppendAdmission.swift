import Foundation
import HTTPTypes
import Synchronization

/// The bounded queue in front of the append path: how many events may be admitted and not yet
/// committed, in all and per API key. A request that would go over is refused at once, before any
/// database work, with 503 (the server is full) or 429 (this key holds its share) and a
/// `Retry-After` estimated from the recent commit rate. Nothing refused is stored, and nothing is
/// acknowledged before its commit, so a client may retry any refused request as it is.
public final class AppendAdmission: Sendable {
    /// The default bound on events admitted and not yet committed: 20,000.
    public static let defaultMaxQueuedEvents = 20_000

    private struct State {
        var queued = 0
        var queuedByKey: [String: Int] = [:]
        /// Events committed per second, smoothed.
        var rate: Double = 0
        var windowStart: ContinuousClock.Instant
        var committedInWindow = 0
    }

    /// The most events admitted and not yet committed, in all.
    public let maxQueued: Int
    /// The most one key may have admitted and not yet committed (half of ``maxQueued`` by default).
    public let maxQueuedPerKey: Int
    private let state: Mutex<State>

    /// A queue of at most `maxQueued` events, `maxQueuedPerKey` of them for any one key.
    public init(maxQueued: Int = defaultMaxQueuedEvents, maxQueuedPerKey: Int? = nil) {
        self.maxQueued = max(1, maxQueued)
        self.maxQueuedPerKey = max(1, maxQueuedPerKey ?? max(1, maxQueued / 2))
        state = Mutex(State(windowStart: .now))
    }

    /// Events admitted and not yet committed, now.
    public var queued: Int { state.withLock { $0.queued } }

    /// Runs `body` (the append) with `events` events admitted for `key`, or refuses at once.
    public func admit<Result>(events: Int, key: String, _ body: () async throws -> Result) async throws -> Result {
        let refusal: Problem? = state.withLock { state in
            if state.queued + events > maxQueued && state.queued > 0 {
                return Self.refusal(.serviceUnavailable, code: "overloaded",
                                    detail: "the server holds \(state.queued) events not yet committed (at most \(maxQueued)); nothing was stored",
                                    retryAfter: Self.retryAfter(queued: state.queued, rate: state.rate))
            }
            let mine = state.queuedByKey[key, default: 0]
            if mine + events > maxQueuedPerKey && mine > 0 {
                return Self.refusal(.tooManyRequests, code: "too-many-requests",
                                    detail: "this API key has \(mine) events not yet committed (at most \(maxQueuedPerKey) per key); nothing was stored",
                                    retryAfter: Self.retryAfter(queued: mine, rate: state.rate))
            }
            state.queued += events
            state.queuedByKey[key] = mine + events
            return nil
        }
        if let refusal { throw refusal }
        var committed = false
        defer { release(events: events, key: key, committed: committed) }
        let result = try await body()
        committed = true
        return result
    }

    private func release(events: Int, key: String, committed: Bool) {
        state.withLock { state in
            state.queued -= events
            let left = state.queuedByKey[key, default: events] - events
            state.queuedByKey[key] = left > 0 ? left : nil
            guard committed else { return }
            state.committedInWindow += events
            let elapsed = ContinuousClock.now - state.windowStart
            if elapsed >= .seconds(1) {
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let current = Double(state.committedInWindow) / seconds
                state.rate = state.rate == 0 ? current : 0.7 * state.rate + 0.3 * current
                state.committedInWindow = 0
                state.windowStart = .now
            }
        }
    }

    /// Seconds until the queue ahead should have drained at the recent rate: 1 to 30.
    static func retryAfter(queued: Int, rate: Double) -> Int {
        guard rate > 0 else { return 1 }
        return min(30, max(1, Int((Double(queued) / rate).rounded(.up))))
    }

    static func refusal(_ status: HTTPResponse.Status, code: String, detail: String, retryAfter: Int) -> Problem {
        var problem = Problem(status, code: code, detail: detail,
                              hint: "Retry the same request after \(retryAfter) s (Retry-After); it is safe: nothing of it was stored.")
        problem.headers[.retryAfter] = String(retryAfter)
        return problem
    }
}
