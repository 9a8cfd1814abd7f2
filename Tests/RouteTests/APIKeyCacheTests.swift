@testable import LedgerApplication
import LedgerCore
import LedgerPostgres
import Testing

/// The rules of `serve`'s key cache (decision 0039), without a database.
@Suite("API key cache")
struct APIKeyCacheTests {
    static let key = APIKey(keyID: "abcdefghijkl", log: "acme", role: .auditor, label: "", createdAt: "2026-11-26T00:00:00Z", revokedAt: nil)
    static let digest: [UInt8] = Array(repeating: 7, count: 32)

    @Test("nothing is cached before the listener is in place, or after it is lost")
    func onlyWhileListening() {
        let cache = APIKeyCache()
        #expect(cache.generation() == nil)
        cache.listening()
        let generation = try! #require(cache.generation())
        cache.store(Self.key, forToken: Self.digest, startedIn: generation)
        #expect(cache.key(forToken: Self.digest) == Self.key)
        cache.lost()
        #expect(cache.key(forToken: Self.digest) == nil)
        #expect(cache.count == 0)
        #expect(cache.generation() == nil)
    }

    @Test("a lookup under way when its key changed is not stored; the change drops the key")
    func changeDuringLookup() {
        let cache = APIKeyCache()
        cache.listening()
        let generation = try! #require(cache.generation())
        cache.changed(keyID: Self.key.keyID)
        cache.store(Self.key, forToken: Self.digest, startedIn: generation)
        #expect(cache.key(forToken: Self.digest) == nil)
        let next = try! #require(cache.generation())
        cache.store(Self.key, forToken: Self.digest, startedIn: next)
        #expect(cache.key(forToken: Self.digest) == Self.key)
        cache.changed(keyID: Self.key.keyID)
        #expect(cache.key(forToken: Self.digest) == nil)
    }

    @Test("an entry older than the longest trust is looked up again")
    func maxAge() {
        let cache = APIKeyCache()
        cache.listening()
        let stored = ContinuousClock.now
        cache.store(Self.key, forToken: Self.digest, startedIn: cache.generation()!, now: stored)
        #expect(cache.key(forToken: Self.digest, now: stored + .seconds(59)) == Self.key)
        #expect(cache.key(forToken: Self.digest, now: stored + APIKeyCache.maxAge) == nil)
    }
}
