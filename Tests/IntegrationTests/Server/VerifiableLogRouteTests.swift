import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LedgerApplication
import LedgerCore
@testable import LedgerPostgres
import LedgerServer
import NIOCore
import Testing

/// The verifiable log over HTTP (issue 20, decision 0046): the checkpoint, the C2SP tiles and the
/// proof bundles, checked against what is computed independently of the routes: hash tiles
/// against the in-memory Merkle tree over the stored leaf hashes, entry bundles against the stored
/// records, proofs against `ProofMaker` (what `consent-ledger prove` writes).
@Suite("The verifiable log over HTTP")
struct VerifiableLogRouteTests {
    static let key = try! NoteSigningKey(generatingWithName: "ledger.test")

    /// The fixture's log `acme`, long enough for two full level-0 tiles and a partial one, signed.
    static func signedLog() async throws -> (fixture: ServerFixture, records: [[UInt8]], leaves: [[UInt8]], checkpoint: StoredCheckpoint) {
        let fixture = try await ServerFixture.make()
        let count = try await ProjectionTestSupport.appendSimulated(fixture.db, log: "acme", families: 30, days: 40, seed: 20)
        #expect(count > 2 * 256, "the log must span two full tiles")
        return try await fixture.db.as(.administrator) { client in
            let signed = try await CheckpointStore(pool: client).sign(log: "acme", key: key)
            var records: [[UInt8]] = []
            var leaves: [[UInt8]] = []
            for try await (record, leaf) in try await client.query("SELECT record, leaf_hash FROM ledger.events WHERE log_id = 'acme' ORDER BY position")
                .decode((Data, Data).self) {
                records.append(Array(record))
                leaves.append(Array(leaf))
            }
            return (fixture, records, leaves, signed.checkpoint)
        }
    }

    @Test("hash tiles and entry bundles are the C2SP tiles of the tree over the stored records; what the tree does not cover is a 404, a malformed path a 400")
    func tiles() async throws {
        let (fixture, records, leaves, checkpoint) = try await Self.signedLog()
        let size = records.count
        #expect(checkpoint.treeSize == UInt64(size))
        let partial = size % 256
        #expect(partial > 0, "the last level-0 tile is partial")
        // Level 1 holds the roots of complete 256-leaf subtrees, computed here from the leaf hashes.
        let level1 = stride(from: 0, to: size / 256 * 256, by: 256).map { MerkleTree.root(of: Array(leaves[$0..<$0 + 256])) }
        try await fixture.test { client in
            let auditor = fixture.headers("auditor")
            let expected: [(String, [UInt8])] = [
                ("tile/0/000", leaves[0..<256].flatMap { $0 }),
                ("tile/0/001", leaves[256..<512].flatMap { $0 }),
                ("tile/0/002.p/\(partial)", leaves[512...].flatMap { $0 }),
                ("tile/0/002.p/1", leaves[512]),
                ("tile/1/000.p/\(level1.count)", level1.flatMap { $0 }),
                ("tile/entries/000", Self.bundle(records[0..<256])),
                ("tile/entries/002.p/\(partial)", Self.bundle(records[512...])),
            ]
            for (path, bytes) in expected {
                let response = try await client.execute(uri: "/v1/logs/acme/" + path, method: .get, headers: auditor)
                #expect(response.status == .ok, "\(path): \(String(buffer: response.body))")
                #expect(Array(buffer: response.body) == bytes, "\(path)")
                #expect(response.headers[.contentType] == "application/octet-stream")
                #expect(response.headers[.cacheControl] == "private, max-age=31536000, immutable")
            }
            for path in ["tile/0/002", "tile/0/002.p/\(partial + 1)", "tile/1/000", "tile/entries/003.p/1", "tile/2/000.p/1"] {
                let response = try await client.execute(uri: "/v1/logs/acme/" + path, method: .get, headers: auditor)
                #expect(response.status == .notFound, "\(path)")
                #expect(String(buffer: response.body).contains("tile-not-found"), "\(path): \(String(buffer: response.body))")
            }
            for path in ["tile/0/2", "tile/0/x000/001", "tile/0/000.p/256", "tile/0/000.p/0", "tile/8/000", "tile/01/000", "tile/0/x1/000", "tile/0/000.p"] {
                let response = try await client.execute(uri: "/v1/logs/acme/" + path, method: .get, headers: auditor)
                #expect(response.status == .badRequest, "\(path): \(response.status)")
            }
            let missing = try await client.execute(uri: "/v1/logs/nosuch/tile/0/000", method: .get, headers: fixture.headers("auditor"))
            #expect(missing.status == .forbidden, "a key of acme may not read another log")
        }
    }

    @Test("the checkpoint is the stored signed note; inclusion (by position or event id) and consistency bundles are prove's bytes")
    func checkpointAndProofs() async throws {
        let (fixture, records, _, checkpoint) = try await Self.signedLog()
        let (inclusion, consistency) = try await fixture.db.as(.auditor) { client in
            (try await ProofMaker(pool: client).inclusion(log: "acme", position: 7, since: 100),
             try await ProofMaker(pool: client).consistency(log: "acme", from: 300))
        }
        let eventId = try #require(try JSONParser.parse(records[6])["event"]?["eventId"]?.stringValue)
        try await fixture.test { client in
            let auditor = fixture.headers("auditor")
            let note = try await client.execute(uri: "/v1/logs/acme/checkpoint", method: .get, headers: auditor)
            #expect(note.status == .ok)
            #expect(note.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(String(buffer: note.body) == checkpoint.note)
            #expect(try Checkpoint.verified(note: String(buffer: note.body), key: Self.key.verifierKey).size == UInt64(records.count))
            for uri in ["/v1/logs/acme/proofs/inclusion?position=7&since=100", "/v1/logs/acme/proofs/inclusion?eventId=\(eventId)&since=100",
                        "/v1/logs/acme/proofs/inclusion?position=7&since=100&size=\(records.count)"] {
                let response = try await client.execute(uri: uri, method: .get, headers: auditor)
                #expect(Array(buffer: response.body) == inclusion.bytes, "\(uri): \(String(buffer: response.body))")
            }
            let proved = try await client.execute(uri: "/v1/logs/acme/proofs/consistency?from=300", method: .get, headers: auditor)
            #expect(Array(buffer: proved.body) == consistency.bytes)
            for (uri, status) in [("/v1/logs/acme/proofs/inclusion", HTTPResponse.Status.badRequest),
                                  ("/v1/logs/acme/proofs/inclusion?position=1&eventId=\(eventId)", .badRequest),
                                  ("/v1/logs/acme/proofs/inclusion?position=0", .badRequest),
                                  ("/v1/logs/acme/proofs/inclusion?position=\(records.count + 1)", .badRequest),
                                  ("/v1/logs/acme/proofs/inclusion?position=1&size=5", .notFound),
                                  ("/v1/logs/acme/proofs/consistency", .badRequest),
                                  ("/v1/logs/other/checkpoint", .forbidden)] {
                let response = try await client.execute(uri: uri, method: .get, headers: auditor)
                #expect(response.status == status, "\(uri): \(String(buffer: response.body))")
            }
        }
    }

    @Test("keys: auditor and admin read, ingest is refused, no key is 401; with public proofs no key reads the hashes, with public entries the records too, and nothing else")
    func access() async throws {
        let (fixture, _, _, _) = try await Self.signedLog()
        let routes = ["/v1/logs/acme/checkpoint", "/v1/logs/acme/tile/0/000", "/v1/logs/acme/tile/entries/000",
                      "/v1/logs/acme/proofs/inclusion?position=3", "/v1/logs/acme/proofs/consistency?from=2"]
        try await fixture.test { client in
            for uri in routes {
                for (role, status) in [("auditor", HTTPResponse.Status.ok), ("admin", .ok), ("ingest", .forbidden), (nil, .unauthorized)] {
                    let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers(role))
                    #expect(response.status == status, "\(uri) as \(role ?? "nobody")")
                }
            }
        }
        var settings = ServerSettings()
        settings.publicProofs = true
        // What carries records (a child's data) needs a key unless entries are made public too (issue 36, finding 11).
        let carryRecords = ["/v1/logs/acme/tile/entries/000", "/v1/logs/acme/proofs/inclusion?position=3"]
        try await fixture.test(settings: settings) { client in
            for uri in carryRecords {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers(nil))
                #expect(response.status == .unauthorized, "\(uri) carries records: without --public-entries it needs a key")
            }
            for uri in routes where !carryRecords.contains(uri) {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers(nil))
                #expect(response.status == .ok, "\(uri) without a key")
            }
        }
        settings.publicEntries = true
        try await fixture.test(settings: settings) { client in
            for uri in routes {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers(nil))
                #expect(response.status == .ok, "\(uri) without a key")
                #expect(response.headers[.cacheControl]?.hasPrefix("public, ") == true)
                let wrong = try await client.execute(uri: uri, method: .get, headers: fixture.headers("cl_nosuch_key"))
                #expect(wrong.status == .unauthorized, "a key that is sent is still checked")
                let ingest = try await client.execute(uri: uri, method: .get, headers: fixture.headers("ingest"))
                #expect(ingest.status == .forbidden, "a key that is sent is still checked for its role")
            }
            for uri in ["/v1/logs/acme/events", "/v1/logs/acme/reports/consent-register", "/v1/logs/acme/subjects"] {
                let response = try await client.execute(uri: uri, method: .get, headers: fixture.headers(nil))
                #expect(response.status == .unauthorized, "\(uri) still needs a key")
            }
        }
    }

    @Test("a checkpoint pass signs only the logs that grew, each extending its last checkpoint")
    func signGrownLogs() async throws {
        let db = try await TestDatabase.create()
        _ = try await ProjectionTestSupport.appendSimulated(db, log: "a", families: 2, days: 3, seed: 1)
        _ = try await ProjectionTestSupport.appendSimulated(db, log: "b", families: 2, days: 3, seed: 2)
        try await db.as(.application) { app in
            try await db.as(.auditor) { auditor in
                try await db.as(.administrator) { admin in
                    let ledger = Ledger(pools: RolePools(application: app, auditor: auditor, administrator: admin))
                    let first = try await ledger.signGrownLogs(key: Self.key).map(Self.describe)
                    #expect(first.sorted() == ["a: first", "b: first"])
                    #expect(try await ledger.signGrownLogs(key: Self.key).isEmpty, "nothing grew, nothing is signed")
                    let before = try await ledger.latestCheckpoint(log: "a").treeSize
                    _ = try await ProjectionTestSupport.appendSimulated(db, log: "a", families: 1, days: 2, seed: 3)
                    let third = try await ledger.signGrownLogs(key: Self.key).map(Self.describe)
                    #expect(third == ["a: extends \(before)"])
                }
            }
        }
    }

    static func describe(_ outcome: Ledger.CheckpointOutcome) -> String {
        switch outcome {
        case .signed(let signed): "\(signed.checkpoint.log): " + (signed.previous.map { "extends \($0.treeSize)" } ?? "first")
        case .refused(let log, let error): "\(log): refused \(error.message)"
        }
    }

    /// C2SP's entry bundle: each record after its length as a big-endian uint16.
    static func bundle(_ records: ArraySlice<[UInt8]>) -> [UInt8] {
        records.flatMap { [UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 }
    }
}
