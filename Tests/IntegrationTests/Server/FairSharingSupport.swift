import Foundation
import LedgerApplication
import LedgerCore
import LedgerPostgres
import NIOConcurrencyHelpers
import Testing

/// What the fair-sharing tests share (issue 36, findings 1 and 13; decision 0055): raw requests, a
/// large log, and a test that holds a pool's connections itself.
enum FairSharing {
    /// Enough events that one stream's NDJSON (about 20 MB) is far more than the kernel buffers
    /// between the server and a client that has stopped reading.
    static let bigLog = 25_000

    /// A bound for a test that must not hang, never a speed check: on the code before the fix
    /// these answers never came at all.
    static let noHang: Duration = .seconds(60)

    /// The bytes of an HTTP/1.1 chunked body (`size CRLF bytes CRLF`…, ended by a chunk of size 0).
    static func dechunked(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        var out: [UInt8] = []
        var index = 0
        while let end = bytes[index...].firstIndex(of: UInt8(ascii: "\r")), let size = Int(String(decoding: bytes[index..<end], as: UTF8.self), radix: 16),
              size > 0, end + 2 + size <= bytes.count {
            out += bytes[(end + 2)..<(end + 2 + size)]
            index = end + 2 + size + 2
            guard index < bytes.count else { break }
        }
        return out
    }

    /// `GET path` with `Connection: close`, and the bearer token when given.
    static func get(_ path: String, token: String?) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n"
    }

    /// ``bigLog`` events in log `acme`, three in log `other`; returns an auditor key of `other`.
    static func fill(_ fixture: ServerFixture) async throws -> String {
        try await fixture.db.as(.administrator) { admin in
            let ledger = Ledger(pools: RolePools(application: admin, auditor: admin, administrator: admin))
            for _ in 0..<(bigLog / 5_000) { _ = try await ledger.bulkAppend(log: "acme", events: try Fixtures.events(5_000)) }
            _ = try await ledger.bulkAppend(log: "other", events: try Fixtures.events(3, streams: 1))
            return try await APIKeyStore(pool: admin).create(log: "other", role: .auditor).1
        }
    }
}

/// Every connection of a pool, held by the test until ``release()``.
final class PoolHog: Sendable {
    private let held: NIOLockedValueBox<[CheckedContinuation<Void, Never>]> = NIOLockedValueBox([])
    private let tasks: NIOLockedValueBox<[Task<Void, any Error>]> = NIOLockedValueBox([])

    /// Takes `connections` connections of `pool` (its size) and returns once it holds them all.
    static func take(_ pool: LedgerPool, connections: Int) async throws -> PoolHog {
        let hog = PoolHog()
        let (taken, signal) = AsyncStream<Void>.makeStream()
        for _ in 0..<connections {
            let task = Task {
                try await pool.client.withConnection { _ in
                    await withCheckedContinuation { continuation in
                        hog.held.withLockedValue { $0.append(continuation) }
                        signal.yield()
                    }
                }
            }
            hog.tasks.withLockedValue { $0.append(task) }
        }
        var count = 0
        for await _ in taken {
            count += 1
            if count == connections { break }
        }
        return hog
    }

    /// Gives every connection back.
    func release() {
        for continuation in held.withLockedValue({ held in defer { held = [] }; return held }) { continuation.resume() }
    }
}
