import LedgerCore
import Testing

@Suite("Pseudonyms")
struct PseudonymTests {
    /// Bytes 0, 1, …, 31.
    static let secret = (0..<32).map(UInt8.init)

    @Test("the derivation matches an independent HMAC-SHA-256 (computed with Python's hmac module)")
    func knownValues() throws {
        #expect(try Pseudonym.derive(accountId: "user-48151623", tenantSecret: Self.secret, kind: .subject)
                == "p_180be2a66b8fd1ac97b2c078218d282c")
        #expect(try Pseudonym.derive(accountId: "user-48151623", tenantSecret: Self.secret, kind: .guardian)
                == "g_858255a1e543878468ea8820784ca263")
    }

    @Test("another secret or another account gives another pseudonym; a short secret is refused")
    func separation() throws {
        let a = try Pseudonym.derive(accountId: "user-1", tenantSecret: Self.secret)
        #expect(a != (try Pseudonym.derive(accountId: "user-2", tenantSecret: Self.secret)))
        #expect(a != (try Pseudonym.derive(accountId: "user-1", tenantSecret: Self.secret.reversed())))
        let error = #expect(throws: LedgerError.self) { _ = try Pseudonym.derive(accountId: "user-1", tenantSecret: [1, 2, 3]) }
        #expect(error?.code == .invalidRequest)
    }

    @Test("pseudonyms pass the envelope's pseudonym format")
    func envelopeFormat() throws {
        let subject = try Pseudonym.derive(accountId: "user-1", tenantSecret: Self.secret)
        let line = #"{"eventId":"0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f","stream":"subject-\#(subject)","type":"AgeRangeDeclined","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","subject":"\#(subject)","actor":{"kind":"subject","id":"\#(subject)"},"payload":{}}"#
        #expect(try EventInput(line: Array(line.utf8)).envelope.subject == subject)
    }
}
