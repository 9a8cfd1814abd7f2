import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("The consent-ledger command line")
struct CLITests {
    /// `--database-url` for this database over the test cluster's socket, as `role`'s user.
    static func url(_ db: TestDatabase, user: String) throws -> String {
        guard case .embedded(let cluster) = db.target else { throw CancellationError() }
        return "postgres:///\(db.name)?host=\(cluster.socketDirectory)&user=\(user)"
    }

    @Test("a bad line is reported with its number and field, and nothing is stored")
    func badLine() async throws {
        let db = try await TestDatabase.create()
        let lines = [
            Fixtures.line(), Fixtures.line(),
            Fixtures.line(payload: #"{"lowerBound":13,"child":{"birthDate":"2013-04-01"}}"#),
            Fixtures.line(),
        ]
        let outcome = try await CLIRunner.run(["append", "--log", "acme", "--database-url", try Self.url(db, user: "consent_ledger_app"), "-"],
                                        input: lines.joined(separator: "\n"))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("line 3, field payload.child.birthDate"))
        #expect(outcome.stderr.contains("Nothing was stored"))
        #expect(outcome.stdout.isEmpty)
        try await db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 0)
        }
    }

    @Test("catalogue refusals name the line and field and store nothing", arguments: [
        (#""type":"AgeRangeRequested","schemaVersion":1"#, #""payload":{"ageGates":[10,13,16,18],"trigger":"launch"}"#, "line 2, field payload.ageGates"),
        (#""type":"AgeRangeRequested","schemaVersion":1"#, #""payload":{"ageGates":[13,14],"trigger":"launch"}"#, "line 2, field payload.ageGates[1]"),
        (#""type":"AgeRangeShared","schemaVersion":2"#, #""payload":{"ageRangeDeclaration":"guardianDeclared","lowerBound":16,"upperBound":13}"#, "line 2, field payload"),
        (#""type":"AgeRangeShared","schemaVersion":2"#, #""payload":{"ageRangeDeclaration":"parentSaidSo","lowerBound":13,"upperBound":15}"#, "line 2, field payload.ageRangeDeclaration"),
        (#""type":"AgeRangeGuessed","schemaVersion":1"#, #""payload":{}"#, "line 2, field type"),
        (#""type":"AgeRangeRequested","schemaVersion":1"#, #""payload":{"ageGates":[13,16]}"#, "line 2, field payload.trigger"),
    ])
    func catalogueRefusals(typeAndVersion: String, payload: String, expected: String) async throws {
        let db = try await TestDatabase.create()
        let bad = #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"subject-p_1",\#(typeAndVersion),"occurredAt":"2026-11-22T10:15:00Z","actor":{"kind":"app"},\#(payload)}"#
        let input = [Fixtures.line(), bad, Fixtures.line()].joined(separator: "\n")
        let outcome = try await CLIRunner.run(["append", "--log", "acme", "--database-url", try Self.url(db, user: "consent_ledger_app"), "-"], input: input)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains(expected), "\(outcome.stderr)")
        try await db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 0)
        }
    }

    @Test("append --verbose prints every position; a re-run stores nothing twice; verify passes, then finds tampering")
    func appendVerifyTamper() async throws {
        let db = try await TestDatabase.create()
        let input = (0..<5).map { _ in Fixtures.line() }.joined(separator: "\n") + "\n"
        let app = try Self.url(db, user: "consent_ledger_app")
        let first = try await CLIRunner.run(["append", "--log", "acme", "--batch-size", "2", "--verbose", "--database-url", app, "-"], input: input)
        #expect(first.status == 0, "\(first.stderr)")
        let printed = first.stdout.split(separator: "\n")
        #expect(printed.count == 5)
        #expect(printed.last?.contains(#""line":5,"position":5"#) == true)

        let again = try await CLIRunner.run(["append", "--log", "acme", "--batch-size", "2", "--database-url", app, "-"], input: input)
        #expect(again.status == 0)
        #expect(again.stderr.contains("appended 0 events") && again.stderr.contains("5 were already in the ledger"))

        let auditor = try Self.url(db, user: "consent_ledger_auditor")
        let events = try await CLIRunner.run(["events", "--log", "acme", "--after", "1", "--limit", "2", "--database-url", auditor])
        #expect(events.stdout.split(separator: "\n").count == 2)
        #expect(events.stdout.hasPrefix(#"{"event":{"#) && events.stdout.contains(#""position":2,"#))

        let good = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", auditor])
        #expect(good.status == 0)
        #expect(good.stdout.contains("verified 5 events"))

        try await db.as(.administrator) { client async throws in
            try await client.withConnection { connection in
                for sql in ["BEGIN", "ALTER TABLE ledger.events DISABLE TRIGGER USER",
                            "UPDATE ledger.events SET occurred_at = occurred_at, record = record || ' '::bytea WHERE position = 3",
                            "ALTER TABLE ledger.events ENABLE TRIGGER USER", "COMMIT"] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .init(label: "t"))
                }
            }
        }
        let bad = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", auditor])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("first bad position 3: leaf-hash"))
    }

    @Test("append --bulk: a bad line stops at its batch, earlier batches stay, the fixed run resumes; the app role is told to use the owner")
    func bulkResumes() async throws {
        let db = try await TestDatabase.create()
        guard case .embedded(let cluster) = db.target else { return }
        let owner = "postgres:///\(db.name)?host=\(cluster.socketDirectory)&user=postgres"
        var lines = (0..<10).map { _ in Fixtures.line() }
        let good = lines[7]
        lines[7] = Fixtures.line(payload: #"{"lowerBound":13,"upperBound":15,"birthYear":2013}"#)
        let first = try await CLIRunner.run(["append", "--log", "acme", "--bulk", "--batch-size", "3", "--database-url", owner, "-"],
                                      input: lines.joined(separator: "\n"))
        #expect(first.status == 1)
        #expect(first.stderr.contains("line 8"), "\(first.stderr)")
        #expect(first.stderr.contains("The 6 events of earlier batches are stored"), "\(first.stderr)")

        lines[7] = good
        let fixed = try await CLIRunner.run(["append", "--log", "acme", "--bulk", "--batch-size", "3", "--database-url", owner, "-"],
                                      input: lines.joined(separator: "\n"))
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stderr.contains("appended 4 events") && fixed.stderr.contains("6 were already in the ledger"), "\(fixed.stderr)")

        let verified = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", owner])
        #expect(verified.status == 0)
        #expect(verified.stdout.contains("verified 10 events"))

        let asApp = try await CLIRunner.run(["append", "--log", "acme", "--bulk", "--database-url", try Self.url(db, user: "consent_ledger_app"), "-"],
                                      input: Fixtures.line())
        #expect(asApp.status == 1)
        #expect(asApp.stderr.contains("needs the owner's rights") && asApp.stderr.contains("leave out --bulk"), "\(asApp.stderr)")
        try await db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 10)
        }
    }

    @Test("a wrong database URL fails at once with what to do")
    func wrongURL() async throws {
        let outcome = try await CLIRunner.run(["logs", "--database-url", "postgres:///nope?host=/nonexistent-socket-folder"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("error: cannot connect to"))
        #expect(outcome.stderr.contains("hint:"))
    }

    @Test("catalogue --sql into a folder that does not exist says so and how to fix it, and writes nothing")
    func catalogueIntoAMissingFolder() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("cl-no-such-\(UUID().uuidString.prefix(8))/generated").path
        let outcome = try await CLIRunner.run(["catalogue", "--sql", missing])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("there is no such folder") && outcome.stderr.contains("mkdir -p \(missing)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("NSCocoaErrorDomain"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}

@Suite("consent-ledger erase")
struct EraseCLITests {
    @Test("erase destroys the key and records SubjectErased; events --reveal shows the field erased, and is a recorded read; verify passes")
    func erase() async throws {
        let db = try await TestDatabase.create()
        guard case .embedded(let cluster) = db.target else { return }
        let admin = "postgres:///\(db.name)?host=\(cluster.socketDirectory)&user=postgres"
        let line = #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"subject-p_9","type":"OperatorDecision","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","subject":"p_9","actor":{"kind":"operator","id":"op_3"},"payload":{"affectedSubjectId":"p_9","decision":"annotation","operatorId":"op_3","reason":"mother called from +44 20 7946 0000"}}"#
        let appended = try await CLIRunner.run(["append", "--log", "acme", "--database-url", try CLITests.url(db, user: "consent_ledger_app"), "-"], input: line)
        #expect(appended.status == 0, "\(appended.stderr)")

        let before = try await CLIRunner.run(["events", "--log", "acme", "--reveal", "--database-url", admin])
        #expect(before.stdout.contains("+44 20 7946 0000"))
        let sealed = try await CLIRunner.run(["events", "--log", "acme", "--database-url", admin])
        #expect(!sealed.stdout.contains("7946 0000") && sealed.stdout.contains("$sealed"))
        // Opening a subject's data is a read of it, recorded before it is printed (issue 36, finding 5);
        // the sealed export of the whole log is not a read of one subject's data.
        let reads = try await db.as(.auditor) { client in
            try await client.int("SELECT count(*) FROM ledger.read_audit WHERE log_id = 'acme' AND subject = 'p_9' AND what = 'events --reveal' AND channel = 'cli'")
        }
        #expect(reads == 1)
        let stream = try await CLIRunner.run(["events", "--log", "acme", "--stream", "subject-p_9", "--database-url", admin])
        #expect(stream.status == 0, "\(stream.stderr)")
        let streamed = try await db.as(.auditor) { client in
            try await client.int("SELECT count(*) FROM ledger.read_audit WHERE log_id = 'acme' AND subject = 'p_9' AND what = 'events --stream'")
        }
        #expect(streamed == 1)

        let erased = try await CLIRunner.run(["erase", "--log", "acme", "--subject", "p_9", "--reason", "erasureRequest",
                                        "--request-reference", "TICKET-1", "--database-url", admin])
        #expect(erased.status == 0, "\(erased.stderr)")
        #expect(erased.stderr.contains("SubjectErased recorded at position 2"))

        let after = try await CLIRunner.run(["events", "--log", "acme", "--reveal", "--database-url", admin])
        #expect(!after.stdout.contains("7946 0000"))
        #expect(after.stdout.contains(#""reason":{"$erased":true}"#))
        #expect(after.stdout.contains(#""operatorId":"op_3""#))
        #expect(after.stdout.contains(#""type":"SubjectErased""#))

        let verify = try await CLIRunner.run(["verify", "--log", "acme", "--database-url", admin])
        #expect(verify.status == 0 && verify.stdout.contains("verified 2 events"))

        let again = try await CLIRunner.run(["erase", "--log", "acme", "--subject", "p_9", "--reason", "erasureRequest", "--database-url", admin])
        #expect(again.status == 1 && again.stderr.contains("already erased"))
    }
}

/// Issue 36, finding 4, from the command line: `append` (and `--bulk`) refuses the ledger's own
/// facts, naming the command that records them; `retention` records RetentionApplied and destroys
/// the keys it names (decision 0056).
@Suite("consent-ledger append refuses the ledger's own facts; retention records them")
struct AppendPermissionCLITests {
    @Test("append and append --bulk refuse SubjectErased and RetentionApplied with the line and the command to use; nothing is stored",
          arguments: [false, true])
    func appendRefuses(bulk: Bool) async throws {
        let db = try await TestDatabase.create()
        guard case .embedded(let cluster) = db.target else { return }
        let admin = "postgres:///\(db.name)?host=\(cluster.socketDirectory)&user=postgres"
        let url = bulk ? admin : try CLITests.url(db, user: "consent_ledger_app")
        let ordinary = AppendPermissionTests.line("AgeRangeShared", actor: "app",
                                                  payload: #"{"ageRangeDeclaration":"selfDeclared","lowerBound":13,"upperBound":15}"#)
        for (event, command) in [(AppendPermissionTests.subjectErased, "consent-ledger erase"),
                                 (AppendPermissionTests.retentionApplied, "consent-ledger retention")] {
            let outcome = try await CLIRunner.run(["append", "--log", "acme", "--database-url", url] + (bulk ? ["--bulk"] : []) + ["-"],
                                            input: ordinary + "\n" + event + "\n")
            #expect(outcome.status == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("line 2"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("recorded by the ledger itself: use `\(command)`"), "\(outcome.stderr)")
        }
        try await db.as(.auditor) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events") == 0)
        }
    }

    @Test("retention records RetentionApplied on the retention stream and destroys the named subjects' keys")
    func retention() async throws {
        let db = try await TestDatabase.create()
        guard case .embedded(let cluster) = db.target else { return }
        let admin = "postgres:///\(db.name)?host=\(cluster.socketDirectory)&user=postgres"
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "acme", events: [try PersonalDataTests.event(subject: "p_9", reason: "phoned")])
        }
        let unnamed = try await CLIRunner.run(["retention", "--log", "acme", "--policy", "retention-2026-01", "--scope", "subjectKeys",
                                         "--reason", "retentionPeriodElapsed", "--database-url", admin])
        #expect(unnamed.status != 0 && unnamed.stderr.contains("give --subject for each"), "\(unnamed.stderr)")
        let outcome = try await CLIRunner.run(["retention", "--log", "acme", "--policy", "retention-2026-01", "--scope", "subjectKeys",
                                         "--reason", "retentionPeriodElapsed", "--subject", "p_9", "--database-url", admin])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("RetentionApplied recorded at position 2"), "\(outcome.stderr)")
        try await db.as(.administrator) { client async throws in
            #expect(try await client.int("SELECT count(*) FROM ledger.events WHERE type = 'RetentionApplied' AND stream = 'retention'") == 1)
            #expect(try await client.int("SELECT count(*) FROM ledger.subject_keys WHERE subject = 'p_9' AND key IS NULL") == 1)
        }
    }
}
