import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Append and read back")
struct AppendAndReadTests {
    @Test("appended events read back with their positions, stream versions, records and hashes")
    func appendThenRead() async throws {
        let db = try await TestDatabase.create()
        let events = try Fixtures.events(10, streams: 3)
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            let result = try await store.append(log: "acme", events: events)
            #expect(result.events.map(\.position) == Array(1...10))
            #expect(!result.idempotentReplay)
            // Stream versions count per stream: streams 0,1,2,0,1,2,…
            #expect(result.events.map(\.streamVersion) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4])

            var read: [StoredEvent] = []
            try await store.read(log: "acme") { read.append($0) }
            #expect(read.count == 10)
            var previous = LedgerHash.genesis
            for (index, row) in read.enumerated() {
                let record = try LedgerRecord(parsing: row.record)
                // The stored record is the canonical wrapper around exactly the bytes we sent.
                #expect(CanonicalJSON.encode(record.event) == events[index].canonicalBytes)
                #expect(record.canonicalBytes == row.record)
                #expect(record.position == row.position && record.log == "acme")
                #expect(record.streamVersion == result.events[index].streamVersion)
                #expect(row.eventId == events[index].envelope.eventId)
                // Hashes computed by PostgreSQL equal the ones computed here.
                #expect(row.leafHash == LedgerHash.leaf(row.record))
                #expect(row.chainHash == LedgerHash.chain(previous: previous, leaf: row.leafHash))
                previous = row.chainHash
            }
            let head = try await store.head(log: "acme")
            #expect(head?.position == 10)
            #expect(head?.chainHash == previous)
        }
    }

    @Test("reading a range, a limit and a stream")
    func readFilters() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try Fixtures.events(12, streams: 4))
            var positions: [Int64] = []
            try await store.read(log: "acme", after: 5, limit: 4) { positions.append($0.position) }
            #expect(positions == [6, 7, 8, 9])
            var stream: [(Int64, Int64)] = []
            try await store.read(log: "acme", stream: "subject-p_1") { stream.append(($0.position, $0.streamVersion)) }
            #expect(stream.map(\.0) == [2, 6, 10])
            #expect(stream.map(\.1) == [1, 2, 3])
        }
    }

    @Test("logs are separate: each has its own positions and chain")
    func logsAreSeparate() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try Fixtures.events(3))
            let other = try await store.append(log: "globex", events: try Fixtures.events(2))
            #expect(other.events.map(\.position) == [1, 2])
            #expect(try await store.logs().map(\.log) == ["acme", "globex"])
            let missing = await #expect(throws: LedgerError.self) { _ = try await store.requireHead(log: "initech") }
            #expect(missing?.code == .logNotFound)
            #expect(missing?.hint?.contains("acme, globex") == true)
        }
    }

    @Test("the append function is usable from plain SQL, as psql would call it")
    func appendFromSQL() async throws {
        let db = try await TestDatabase.create()
        try await db.as(.application) { client async throws in
            let body = String(decoding: try Fixtures.event().canonicalBytes, as: UTF8.self)
            let position = try await client.int("SELECT position FROM ledger.append_events('acme', ARRAY[\(body)])")
            #expect(position == 1)
            let invalidLog = await client.sqlState("SELECT * FROM ledger.append_events('Not A Log', ARRAY[\(body)])")
            #expect(invalidLog == "CL007")
        }
    }
}
