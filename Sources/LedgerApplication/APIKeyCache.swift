import LedgerCore
import LedgerPostgres
import Synchronization

/// API keys verified against the database, kept in memory so that a request with a known key costs
/// no round trip (issue 18). Keys are kept only while a ``ChannelListener`` (its `apiKeyChanges`) hears every
/// change (decision 0039):
/// - nothing is cached until ``listening()`` is called, and ``lost()`` empties the cache and stops
///   caching until the next ``listening()``: a change made while nobody listened cannot leave a
///   revoked key in memory;
/// - ``changed(keyID:)`` drops the key, and a lookup that was already under way when it came is not
///   stored (each lookup carries the ``generation`` it started in);
/// - an entry is used for at most ``maxAge`` even so, and at most ``maxEntries`` are kept (the
///   oldest go first), so a flood of distinct valid keys cannot grow memory without bound.
/// Tokens are kept as their SHA-256, never in clear; a token that fails is never cached.
public final class APIKeyCache: Sendable {
    /// The longest an entry is trusted without the database, whatever the listener says.
    public static let maxAge: Duration = .seconds(60)
    /// The most keys kept.
    public static let maxEntries = 10_000

    private struct Entry {
        let key: APIKey
        let storedAt: ContinuousClock.Instant
    }

    private struct State {
        var listening = false
        var generation: UInt64 = 0
        var entries: [[UInt8]: Entry] = [:]
    }

    private let state = Mutex(State())

    /// An empty cache that caches nothing until ``listening()``.
    public init() {}

    /// The key `token` was verified as, if cached and not older than ``maxAge``.
    func key(forToken digest: [UInt8], now: ContinuousClock.Instant = .now) -> APIKey? {
        state.withLock { state in
            guard state.listening, let entry = state.entries[digest] else { return nil }
            guard now - entry.storedAt < Self.maxAge else {
                state.entries[digest] = nil
                return nil
            }
            return entry.key
        }
    }

    /// The generation a lookup in the database starts in, or nil when nothing may be cached now.
    func generation() -> UInt64? {
        state.withLock { $0.listening ? $0.generation : nil }
    }

    /// Keeps `key` for `digest`, unless a change came (or listening stopped) since `generation`.
    func store(_ key: APIKey, forToken digest: [UInt8], startedIn generation: UInt64, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard state.listening, state.generation == generation else { return }
            if state.entries.count >= Self.maxEntries, state.entries[digest] == nil,
               let oldest = state.entries.min(by: { $0.value.storedAt < $1.value.storedAt })?.key {
                state.entries[oldest] = nil
            }
            state.entries[digest] = Entry(key: key, storedAt: now)
        }
    }

    /// The listener's LISTEN is in place: from now on every change is heard.
    public func listening() {
        state.withLock { state in
            state.generation &+= 1
            state.listening = true
        }
    }

    /// The listener's connection ended: forget every key and cache nothing until it is back.
    public func lost() {
        state.withLock { state in
            state.generation &+= 1
            state.listening = false
            state.entries.removeAll()
        }
    }

    /// A key changed in the database (revoked, most often): forget it.
    public func changed(keyID: String) {
        state.withLock { state in
            state.generation &+= 1
            state.entries = state.entries.filter { $0.value.key.keyID != keyID }
        }
    }

    /// How many keys are kept (for tests and metrics).
    public var count: Int { state.withLock { $0.entries.count } }
}
