import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import PostgresNIO
import Testing
import LedgerSimulation

/// Reports pinned to signed checkpoints: the regulator report's integrity starts from the newest
/// checkpoint at or below its position, and the dossier carries inclusion proofs into it.
@Suite("Reports against signed checkpoints")
struct ReportCheckpointTests {
    static func sign(_ db: TestDatabase, log: String, key: NoteSigningKey) async throws -> StoredCheckpoint {
        try await db.as(.administrator) { client in try await CheckpointStore(pool: client).sign(log: log, key: key).checkpoint }
    }

    @Test("the regulator report names its checkpoint and re-hashes from the period's first event; a changed record after it fails")
    func regulatorIntegrity() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        let head = try await db.as(.auditor) { client in try await EventStore(pool: client).requireHead(log: "tx").position }
        let checkpoint = try await Self.sign(db, log: "tx", key: key)
        #expect(checkpoint.treeSize == UInt64(head))
        let atHead = try await db.as(.auditor) { client in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client).report
        }
        let integrity = try #require(atHead["integrity"])
        #expect(integrity["passed"] == true)
        // The period's first event is at position 3: everything from it is re-hashed, below the checkpoint too.
        #expect(integrity["verifiedFrom"] == 3 && integrity["verifiedThrough"] == .number(Double(head)))
        #expect(integrity["checkpoint"]?["treeSize"] == .number(Double(head)))
        #expect(atHead["ledger"]?["checkpoint"]?["note"]?.stringValue == checkpoint.note)
        let violations = try JSONSchemaValidator(schemaFile: "regulator").violations(of: atHead)
        #expect(violations.isEmpty, "\(violations)")
        // As of a position before the checkpoint: no checkpoint, everything re-hashed.
        let early = try await db.as(.auditor) { client in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(asOf: 14), pool: client).report
        }
        #expect(early["integrity"]?["checkpoint"]?.isNull == true && early["integrity"]?["verifiedFrom"] == 1)

        // Events after the checkpoint are re-hashed; one changed behind the database's back fails the report.
        try await CheckpointTests.append(db, 3, log: "tx")
        try await CheckpointTests.tamper(db, table: "ledger.events",
                                         "UPDATE ledger.events SET record = record || ' '::bytea WHERE log_id = 'tx' AND position = \(head + 2)")
        let tampered = try await db.as(.auditor) { client in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client).report
        }
        #expect(tampered["integrity"]?["passed"] == false)
        #expect(tampered["integrity"]?["problem"]?.stringValue?.contains("position \(head + 2)") == true)
    }

    @Test("a stored tree that no longer matches the signed root fails the report's integrity")
    func rewrittenTree() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        let checkpoint = try await Self.sign(db, log: "tx", key: try NoteSigningKey(generatingWithName: "ledger.example.com"))
        let top = 63 - (checkpoint.treeSize - 1).leadingZeroBitCount   // the level of the root's left subtree
        try await CheckpointTests.tamper(db, table: "ledger.merkle_nodes",
                                         "UPDATE ledger.merkle_nodes SET hash = sha256(hash) WHERE log_id = 'tx' AND level = \(top) AND index = 0")
        let report = try await db.as(.auditor) { client in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client).report
        }
        #expect(report["integrity"]?["passed"] == false)
        #expect(report["integrity"]?["problem"]?.stringValue?.contains("not the signed root") == true)
    }

    @Test("the dossier carries, for each event up to the checkpoint, an audit path that leads to the signed root")
    func dossierProofs() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        let key = try NoteSigningKey(generatingWithName: "ledger.example.com")
        let checkpoint = try await Self.sign(db, log: "demo", key: key)
        try await db.as(.application) { client in
            let line = "{\"subject\":\"\(DemoHistory.subject)\"," + Fixtures.line(stream: "subject-" + DemoHistory.subject).dropFirst()
            _ = try await EventStore(pool: client).append(log: "demo", events: [try EventInput(line: Array(line.utf8))])
        }
        let dossier = try await db.as(.auditor) { client in
            try await SubjectDossierReport.compute(log: "demo", subject: DemoHistory.subject, pool: client)
        }
        let verified = try Checkpoint.verified(note: checkpoint.note, key: key.verifierKey)
        var proved = 0
        for step in dossier.steps {
            let position = UInt64(step.position)
            guard position <= checkpoint.treeSize else {
                #expect(step.inclusionProof == nil, "position \(position) is after the checkpoint")
                continue
            }
            let proof = try #require(step.inclusionProof)
            #expect(proof.treeSize == checkpoint.treeSize)
            let leaf = try #require(Self.bytes(.string(proof.leafHash)))
            let path = proof.path.compactMap { Self.bytes(.string($0)) }
            #expect(path.count == proof.path.count)
            try MerkleProofVerifier.verifyInclusion(leafHash: leaf, index: position - 1, size: verified.size, proof: path, root: verified.rootHash)
            proved += 1
        }
        #expect(proved == dossier.steps.count - 1)
        #expect(try JSONSchemaValidator(schemaFile: "subject-dossier").violations(of: dossier.json).isEmpty)
    }

    static func bytes(_ hex: JSONValue?) -> [UInt8]? {
        guard let text = hex?.stringValue, text.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
