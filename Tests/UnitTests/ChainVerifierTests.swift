import LedgerCore
import Testing

/// `ChainVerifier`: a valid chain of 50 events built in the test passes; each single mutation is
/// reported at its exact position with its kind, and the verifier stops there.
@Suite("ChainVerifier")
struct ChainVerifierTests {
    static let valid = TestChain(count: 50)

    /// Feeds `chain` and expects exactly `problem` at `position` of `kind`, with every earlier
    /// event verified and the verifier's state left at the event before.
    static func expectProblem(_ chain: TestChain, at position: Int64, _ kind: IntegrityProblem.Kind,
                              verified: Int64? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let verified = verified ?? position - 1
        let (verifier, problem) = chain.verify()
        #expect(problem?.position == position, "\(String(describing: problem))", sourceLocation: sourceLocation)
        #expect(problem?.kind == kind, "\(String(describing: problem))", sourceLocation: sourceLocation)
        #expect(problem?.detail.isEmpty == false, sourceLocation: sourceLocation)
        #expect(verifier.verifiedCount == verified, sourceLocation: sourceLocation)
        #expect(verifier.lastPosition == verified, sourceLocation: sourceLocation)
        let expectedChain = verified == 0 ? LedgerHash.genesis : valid.rows[Int(verified) - 1].chainHash
        #expect(verifier.lastChainHash == expectedChain, sourceLocation: sourceLocation)
    }

    // MARK: A valid chain

    @Test("the test chain is built as the SQL builds it")
    func fixtureIsSound() throws {
        let rows = Self.valid.rows
        #expect(rows.count == 50)
        #expect(rows.map(\.position) == Array(1...50))
        #expect(Set(rows.map(\.eventId)).count == 50)
        #expect(rows[0].chainHash == LedgerHash.chain(previous: LedgerHash.genesis, leaf: LedgerHash.leaf(rows[0].record)))
        for row in rows {
            let record = try LedgerRecord(parsing: row.record)
            #expect(record.position == row.position)
            #expect(record.canonicalBytes == row.record)
        }
        // Stream versions count up per stream.
        #expect(rows[0].streamVersion == 1 && rows[1].streamVersion == 1 && rows[2].streamVersion == 1)
        #expect(rows[3].streamVersion == 2 && rows[49].streamVersion == 17)
    }

    @Test("a valid chain of 50 passes, and its head checks")
    func validChain() {
        let (verifier, problem) = Self.valid.verify()
        #expect(problem == nil)
        #expect(verifier.verifiedCount == 50)
        #expect(verifier.nonCanonicalCount == 0)
        #expect(verifier.lastPosition == 50)
        #expect(verifier.lastChainHash == Self.valid.rows[49].chainHash)
        #expect(verifier.log == "acme")
        #expect(verifier.checkHead(position: Self.valid.headPosition, chainHash: Self.valid.headChainHash) == nil)
    }

    @Test("an empty log passes: head position 0 with the genesis hash")
    func emptyLog() {
        let verifier = ChainVerifier(log: "acme")
        #expect(verifier.lastPosition == 0)
        #expect(verifier.lastChainHash == LedgerHash.genesis)
        #expect(verifier.checkHead(position: 0, chainHash: LedgerHash.genesis) == nil)
        #expect(verifier.checkHead(position: 1, chainHash: LedgerHash.genesis)?.kind == .head)
    }

    @Test("verification can start after a known position and chain hash")
    func resumeAfter() {
        let rows = Self.valid.rows
        var verifier = ChainVerifier(log: "acme", after: 25, chainHash: rows[24].chainHash)
        for row in rows[25...] {
            #expect(verifier.check(row) == nil)
        }
        #expect(verifier.verifiedCount == 25)
        #expect(verifier.checkHead(position: 50, chainHash: rows[49].chainHash) == nil)

        var wrongStart = ChainVerifier(log: "acme", after: 25, chainHash: rows[23].chainHash)
        let problem = wrongStart.check(rows[25])
        #expect(problem?.kind == .chainHash)
        #expect(problem?.position == 26)

        var wrongPosition = ChainVerifier(log: "acme", after: 24, chainHash: rows[24].chainHash)
        #expect(wrongPosition.check(rows[25])?.kind == .gap)
    }

    // MARK: Hashes

    @Test("a flipped byte in the record at position 17 is a leaf-hash problem at 17")
    func flippedRecordByte() {
        var chain = Self.valid
        chain.rows[16].record[30] ^= 0x01
        Self.expectProblem(chain, at: 17, .leafHash)
    }

    @Test("a flipped byte anywhere in the stored leaf hash is a leaf-hash problem", arguments: [0, 15, 31])
    func flippedLeafHashByte(index: Int) {
        var chain = Self.valid
        chain.rows[16].leafHash[index] ^= 0x80
        Self.expectProblem(chain, at: 17, .leafHash)
    }

    @Test("a changed record with its leaf recomputed but the old chain hash is a chain-hash problem")
    func recomputedLeafOldChain() throws {
        var chain = Self.valid
        var text = String(decoding: chain.rows[16].record, as: UTF8.self)
        text = text.replacing(#""lowerBound":13"#, with: #""lowerBound":16"#)
        #expect(Array(text.utf8) != chain.rows[16].record)
        chain.rows[16].record = Array(text.utf8)
        chain.rows[16].leafHash = LedgerHash.leaf(chain.rows[16].record)
        Self.expectProblem(chain, at: 17, .chainHash)
    }

    @Test("a flipped byte in the stored chain hash is a chain-hash problem")
    func flippedChainHashByte() {
        var chain = Self.valid
        chain.rows[16].chainHash[0] ^= 0x01
        Self.expectProblem(chain, at: 17, .chainHash)
    }

    @Test("the first event must chain from genesis")
    func firstEventChainsFromGenesis() {
        var chain = Self.valid
        chain.rows[0].chainHash = LedgerHash.leaf(chain.rows[0].record)  // no chaining at all
        Self.expectProblem(chain, at: 1, .chainHash)
    }

    @Test("a reordering of two events is found at the first of them")
    func swappedEvents() {
        var chain = Self.valid
        chain.rows.swapAt(16, 17)
        Self.expectProblem(chain, at: 18, .gap, verified: 16)  // row 18 arrives where 17 is expected
    }

    @Test("a whole chain rebuilt after a change passes the hashes but not the head, when the head was kept elsewhere")
    func rewrittenChainIsCaughtByTheHead() {
        var chain = Self.valid
        var text = String(decoding: chain.rows[16].record, as: UTF8.self)
        text = text.replacing(#""lowerBound":13"#, with: #""lowerBound":16"#)
        chain.resealing(position: 17, record: Array(text.utf8))
        let (verifier, problem) = chain.verify()
        #expect(problem == nil)
        let head = verifier.checkHead(position: 50, chainHash: Self.valid.headChainHash)
        #expect(head?.kind == .head)
        #expect(head?.position == 50)
    }

    // MARK: Positions

    @Test("a missing position is a gap, reported at the position that arrived")
    func missingPosition() {
        var chain = Self.valid
        chain.rows.remove(at: 16)  // position 17
        Self.expectProblem(chain, at: 18, .gap, verified: 16)
        let (_, problem) = chain.verify()
        #expect(problem?.detail.contains("expected position 17") == true, "\(String(describing: problem))")
    }

    @Test("a duplicated position is a gap at the repeated position")
    func duplicatedPosition() {
        var chain = Self.valid
        chain.rows.insert(chain.rows[16], at: 17)  // 17, 17, 18, …
        Self.expectProblem(chain, at: 17, .gap, verified: 17)
        let (_, problem) = chain.verify()
        #expect(problem?.detail.contains("expected position 18 after 17, found 17") == true, "\(String(describing: problem))")
    }

    @Test("a log that starts at 2 is a gap at 2")
    func missingFirst() {
        var chain = Self.valid
        chain.rows.removeFirst()
        Self.expectProblem(chain, at: 2, .gap, verified: 0)
    }

    // MARK: Columns
    // That each column agrees with its record is checked by LogVerifier (ColumnAgreement from the
    // skimmed record, the database's ledger.column_problems for the rest): see VerifyTests in
    // IntegrationTests, column by column.

    // MARK: Records

    @Test("a non-canonical record with correct hashes passes and is counted")
    func nonCanonicalRecord() throws {
        var chain = Self.valid
        let record = try LedgerRecord(parsing: chain.rows[16].record)
        guard case .object(let event) = record.event else { Issue.record("fixture event is not an object"); return }
        // Same members, keys in the order the SQL writes them, but the event with spaces.
        let spaced = #"{"event": "# + CanonicalJSON.encodeString(.object(event)) + #" ,"log":"acme","position":17,"recordedAt":""#
            + record.recordedAt + #"","streamVersion":"# + String(record.streamVersion) + "}"
        chain.resealing(position: 17, record: Array(spaced.utf8))
        let (verifier, problem) = chain.verify()
        #expect(problem == nil, "\(String(describing: problem))")
        #expect(verifier.verifiedCount == 50)
        #expect(verifier.nonCanonicalCount == 1)
        #expect(verifier.checkHead(position: 50, chainHash: chain.headChainHash) == nil)
    }

    @Test("a record that is not JSON, correctly hashed, is a record problem", arguments: [
        "not json", "", #"{"event":"#, "[1,2,3]", #"{"event":[],"log":"acme","position":17,"recordedAt":"x","streamVersion":1}"#,
    ])
    func notJSON(text: String) {
        var chain = Self.valid
        chain.resealing(position: 17, record: Array(text.utf8))
        Self.expectProblem(chain, at: 17, .record)
    }

    // MARK: Head

    @Test("a head with a higher position than the last event is a head problem")
    func headAhead() {
        let (verifier, problem) = Self.valid.verify()
        #expect(problem == nil)
        let head = verifier.checkHead(position: 51, chainHash: Self.valid.headChainHash)
        #expect(head?.kind == .head)
        #expect(head?.position == 51)
        #expect(head?.description.hasPrefix("position 51: head: ") == true)
    }

    @Test("a head behind the last event, or with another chain hash, is a head problem")
    func headBehindOrWrongHash() {
        let (verifier, _) = Self.valid.verify()
        #expect(verifier.checkHead(position: 49, chainHash: Self.valid.rows[48].chainHash)?.kind == .head)
        #expect(verifier.checkHead(position: 49, chainHash: Self.valid.headChainHash)?.position == 49)
        #expect(verifier.checkHead(position: 50, chainHash: Self.valid.rows[48].chainHash)?.kind == .head)
        #expect(verifier.checkHead(position: 50, chainHash: LedgerHash.genesis)?.kind == .head)
    }

    // MARK: After a problem

    @Test("after a problem the verifier does not advance")
    func doesNotAdvance() {
        var chain = Self.valid
        chain.rows[16].record[30] ^= 0x01
        var verifier = ChainVerifier(log: "acme")
        for row in chain.rows[..<16] { #expect(verifier.check(row) == nil) }
        let before = (verifier.lastPosition, verifier.lastChainHash, verifier.verifiedCount, verifier.nonCanonicalCount)

        #expect(verifier.check(chain.rows[16])?.kind == .leafHash)
        #expect(verifier.lastPosition == before.0)
        #expect(verifier.lastChainHash == before.1)
        #expect(verifier.verifiedCount == before.2)
        #expect(verifier.nonCanonicalCount == before.3)

        // The next, untouched event is not accepted in its place: it is out of sequence.
        let next = verifier.check(chain.rows[17])
        #expect(next?.kind == .gap)
        #expect(next?.position == 18)
        #expect(verifier.verifiedCount == 16)
        // The head does not match either.
        #expect(verifier.checkHead(position: 50, chainHash: chain.headChainHash)?.kind == .head)

        // The original event 17 is still accepted: the state is exactly as before the bad row.
        #expect(verifier.check(Self.valid.rows[16]) == nil)
        #expect(verifier.check(Self.valid.rows[17]) == nil)
        #expect(verifier.verifiedCount == 18)
    }

    @Test("a record problem does not advance either")
    func recordProblemDoesNotAdvance() {
        var row = Self.valid.rows[0]
        row.record = Array("not json".utf8)
        row.leafHash = LedgerHash.leaf(row.record)
        row.chainHash = LedgerHash.chain(previous: LedgerHash.genesis, leaf: row.leafHash)
        var verifier = ChainVerifier(log: "acme")
        #expect(verifier.check(row)?.kind == .record)
        #expect(verifier.lastPosition == 0)
        #expect(verifier.lastChainHash == LedgerHash.genesis)
        #expect(verifier.verifiedCount == 0)
        #expect(verifier.check(Self.valid.rows[0]) == nil)
    }

    @Test("problems describe themselves as position: kind: detail")
    func problemDescription() {
        let problem = IntegrityProblem(position: 42, kind: .leafHash, detail: "x")
        #expect(problem.description == "position 42: leaf-hash: x")
        #expect(IntegrityProblem.Kind.chainHash.rawValue == "chain-hash")
    }

    // MARK: Found by these tests, fixed

    /// Follows from the LedgerRecord bug (fractional numbers truncated by `Int64(_:)`): a
    /// correctly hashed record saying `"position":17.5` verifies as position 17.
    @Test("a record with a fractional position is not accepted")
    func fractionalPositionInRecord() {
        var chain = Self.valid
        var text = String(decoding: chain.rows[16].record, as: UTF8.self)
        text = text.replacing(#""position":17,"#, with: #""position":17.5,"#)
        #expect(text.contains(#""position":17.5,"#))
        chain.resealing(position: 17, record: Array(text.utf8))
        let (_, problem) = chain.verify()
        #expect(problem?.position == 17)
        #expect(problem?.kind == .record)
    }

    /// `ChainVerifier.log` is documented as "the log being verified" but is never compared with
    /// anything: rows (and records) of another log verify cleanly.
    @Test("rows of another log are not accepted by a verifier for this log")
    func otherLogRows() {
        let (_, problem) = Self.valid.verify(as: "other")
        #expect(problem?.kind == .column)
        #expect(problem?.position == 1)
    }
}
