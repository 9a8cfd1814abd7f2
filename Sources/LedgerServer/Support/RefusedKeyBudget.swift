import Hummingbird
import Synchronization

/// How many refused keys each client may offer a minute (issue 36: "every bad token costs a
/// database query"). A client that offered ``perMinute`` keys that were not accepted within a
/// minute is answered 429 `too-many-refused-keys` with `Retry-After` until the minute is over,
/// before any key of it is looked up, so guessing keys costs the database nothing and one client's
/// guessing cannot slow another's requests. Counted per client address (the peer's, or the one a
/// trusted proxy forwarded for); a request with no address (a Unix socket) is not counted.
/// Shared by the API's key check and the console's sign-in.
final class RefusedKeyBudget: Sendable {
    /// The most refused keys one client may offer in a minute.
    let perMinute: Int
    /// The most clients remembered; when full, finished minutes are forgotten first, then all.
    static let maxClients = 50_000
    static let window: Duration = .seconds(60)

    private struct Minute { var start: ContinuousClock.Instant; var refused: Int }
    private let minutes = Mutex<[String: Minute]>([:])

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Throws 429 when `client` has used its minute's refusals.
    func check(_ client: String?, now: ContinuousClock.Instant = .now) throws {
        guard let client else { return }
        let left: Duration? = minutes.withLock { minutes in
            guard let minute = minutes[client], now - minute.start < Self.window, minute.refused >= perMinute else { return nil }
            return Self.window - (now - minute.start)
        }
        guard let left else { return }
        let seconds = max(1, Int(left.components.seconds) + 1)
        var problem = Problem(.tooManyRequests, code: "too-many-refused-keys",
                              detail: "this client offered \(perMinute) API keys that were not accepted within a minute",
                              hint: "Retry after \(seconds) s (Retry-After) with a valid key; ask the ledger's operator for one "
                                  + "(consent-ledger keys create --log L --role R).")
        problem.headers[.retryAfter] = String(seconds)
        throw problem
    }

    /// Counts one refused key offered by `client`.
    func refused(_ client: String?, now: ContinuousClock.Instant = .now) {
        guard let client else { return }
        minutes.withLock { minutes in
            if var minute = minutes[client], now - minute.start < Self.window {
                minute.refused += 1
                minutes[client] = minute
                return
            }
            if minutes.count >= Self.maxClients {
                minutes = minutes.filter { now - $0.value.start < Self.window }
                if minutes.count >= Self.maxClients { minutes.removeAll() }
            }
            minutes[client] = Minute(start: now, refused: 1)
        }
    }
}
