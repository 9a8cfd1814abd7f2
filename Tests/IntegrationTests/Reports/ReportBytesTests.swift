import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportHTML
import LedgerReportModel
import LedgerSimulation
import PostgresNIO
import Testing

/// The bytes of every form of a report (JSON, CSV and HTML) on fixed histories, pinned by their
/// SHA-256, so that a change in how a report is made (decision 0073: its document is a type) that
/// changes one byte fails here. The ledger's clock is not fixed: each event's recorded time, and
/// with it the chain hash a report states and so its seal, changes from run to run. Those two
/// values (and the seal's prefix in the page's running header) are replaced by placeholders
/// before hashing; everything else is hashed as written.
@Suite("Report bytes: every form pinned on fixed histories")
struct ReportBytesTests {
    /// The SHA-256 of `text` after the run's chain hash and seal are replaced by placeholders.
    static func pinned(_ bytes: [UInt8], headHash: String, seal: String) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: headHash, with: "<head-hash>")
            .replacingOccurrences(of: seal, with: "<seal>")
            .replacingOccurrences(of: String(seal.prefix(16)), with: "<seal-prefix>")
        return LedgerHash.hex(LedgerHash.sha256(Array(text.utf8)))
    }

    /// The JSON, CSV and HTML bytes of one consent register, pinned.
    static func register(_ parameters: ConsentRegisterReport.Parameters, pool: LedgerPool) async throws -> (digests: [String], rows: Int) {
        let report = try await ConsentRegisterReport.compute(parameters, pool: pool)
        let digests = try ReportEncoding.allCases.map { encoding in
            pinned(try encoding.bytes(json: report.json, csv: { ConsentRegisterReport.csv(report.rows) }),
                   headHash: report.provenance.headHash, seal: report.sha256)
        }
        return (digests, report.rows.count)
    }

    @Test("the consent register of the demo story and of a simulated history: the whole log, a period, an empty period, one subject")
    func consentRegister() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await ProjectionTestSupport.appendSimulated(db, log: "sim", families: 8, days: 20, seed: 15)
        let cases: [(String, ConsentRegisterReport.Parameters)] = [
            ("demo", .init(log: "demo")),
            ("demo as of 6", .init(log: "demo", asOf: 6)),
            ("sim", .init(log: "sim")),
            ("sim in a period", .init(log: "sim", from: AsOf.date("2026-09-05T00:00:00Z"), to: AsOf.date("2026-09-12T00:00:00Z"))),
            ("sim, an empty period", .init(log: "sim", from: AsOf.date("2020-01-01T00:00:00Z"), to: AsOf.date("2020-02-01T00:00:00Z"))),
            ("demo, one subject", .init(log: "demo", subject: DemoHistory.subject)),
        ]
        let expected: [String: [String]] = [
            "demo": [
                "dad44317c80704577ab12b308368b6ab1a90e7fac0f9c73dd741925b9a901f56",
                "1113a1f583617f1fab6bf16783b07a4cb67e7fcdff10a4499e7bc51af163ba1a",
                "9c208a871daee67e834f2d5ded87146eaafb47aef70578db3aa442766bde26bd",
            ],
            "demo as of 6": [
                "9c143db24c6d978936842f478908146781c994c06961dff0586255603712cd07",
                "ce8f6b005d3a607fdf7012ecb248788964549b8da28874691d258d0b820e4588",
                "d64758f977d19883d3dead243209c7e14e16af151e53d9228fff3799e48bc462",
            ],
            "sim": [
                "d8dc9824cfd423bf362ac8f9fed4d5d8eb42fd38439959c36835a60473740300",
                "a24ac0d025e0570a081bcac26d09d56991e7fd06b7541e14f90a4625e6ece74f",
                "8816d6968aaa25a676cc07e6805b2ac9fca7959a18cc4ae8892afee0b7b478bc",
            ],
            "sim in a period": [
                "a604d6d06c484c9027fa307ccc2428dc2af64225675e9413b72554085deda545",
                "f554a08985fc050196e03464a12434c7023380195cd9e953ff7807daf079db3e",
                "7f47186b164c2129d39e3c857ab3a463ee3c7f7de51352e3c6e6716acdcda8bb",
            ],
            "sim, an empty period": [
                "21fe1962eeb98526084f49ba1fc71999df879505432fad706cc2a63932d282c1",
                "ed46834d69c1922de6362bd669a67b04699e00694fa45d3dff5f355d4b23ca40",
                "99b40a2b0972603849bb776bd6e00b3cc0cbe768424a0dcc062c3b19ca173204",
            ],
            "demo, one subject": [
                "3c2b2c1ddb91b69f885640f021ae9501cdb902fa31918c548a3a2bc11bc8eb8c",
                "1113a1f583617f1fab6bf16783b07a4cb67e7fcdff10a4499e7bc51af163ba1a",
                "881ed4aea6f3ea7645f9c4aacaa76e7f1fb6707fa4a6b37abe14ee1db52f38ef",
            ],
        ]
        try await db.as(.auditor) { client async throws in
            for (name, parameters) in cases {
                let (digests, rows) = try await Self.register(parameters, pool: client)
                #expect(digests == expected[name], "\(name): json, csv, html")
                #expect((rows == 0) == name.hasSuffix("empty period"), "\(name): \(rows) rows")
            }
        }
    }

    // MARK: The dossier and the regulator report: recorded times, proofs and checkpoints vary

    /// The members whose values change from run to run: the recorded times (the ledger's clock),
    /// everything hashed over them (chain and leaf hashes, audit paths, a checkpoint's root, note
    /// and signature), a checkpoint's key (generated per test) and when it was signed.
    static let variableMembers: Set<String> = [
        "recordedAt", "headHash", "leafHash", "path", "rootHash", "chainHash", "signedAt", "keyId", "verifierKey", "note",
        "verifiedAt",
    ]

    /// Every string value of a ``variableMembers`` member in `value` (a note's lines one by one),
    /// and the seal.
    static func variables(in value: JSONValue) -> Set<String> {
        var found: Set<String> = []
        func collect(_ value: JSONValue, variable: Bool) {
            switch value {
            case .object(let members):
                for (name, member) in members { collect(member, variable: variableMembers.contains(name) || name == ReportSeal.member) }
            case .array(let elements):
                for element in elements { collect(element, variable: variable) }
            case .string(let text) where variable:
                found.formUnion(text.split(separator: "\n").map(String.init).filter { $0.count >= 8 })
            default:
                break
            }
        }
        collect(value, variable: false)
        return found
    }

    /// Every time `log`'s events were recorded, to the second as a notice names the newest (either
    /// side of it, however rounded): a report need not carry the recorded time it names.
    static func recordedTimes(log: String, pool: LedgerPool) async throws -> Set<String> {
        var times: Set<String> = []
        let rows = try await pool.query("SELECT floor(extract(epoch FROM recorded_at))::bigint FROM ledger.events WHERE log_id = \(log)")
        for try await seconds in rows.decode(Int64.self) {
            for second in [seconds, seconds + 1] {
                times.insert(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(second))))
            }
        }
        return times
    }

    /// `text` with every value of `variables` replaced: a time by one fixed time, anything else
    /// by `<variable>` (longest first, so no value is cut by a shorter one inside it).
    static func replacing(_ variables: Set<String>, in text: String) -> String {
        var text = text
        for value in variables.sorted(by: { ($0.count, $0) > ($1.count, $1) }) {
            let fixed = RFC3339.isValidDateTime(value) ? "2000-01-01T00:00:00Z" : "<variable>"
            text = text.replacingOccurrences(of: value, with: fixed)
        }
        return text
    }

    /// The SHA-256 of a report's JSON, CSV and page with its variable values (``variables(in:)``)
    /// fixed. The JSON must be canonical as written (so a number written differently fails even
    /// where the values are fixed); its fixed form is sealed again, and the page is rendered from
    /// that sealed form, so every byte of the page but those values is as the report makes it.
    /// `recorded` are the log's recorded times (``recordedTimes(log:pool:)``).
    static func pinned(json: [UInt8], csv: String, recorded: Set<String>) throws -> [String] {
        let report = try JSONParser.parse(json)
        #expect(CanonicalJSON.encode(report) == json, "the report's JSON is canonical")
        #expect(ReportSeal.verify(report), "the report's seal matches")
        let variables = variables(in: report).union(recorded)
        guard case .object(let members) = try JSONParser.parse(Array(replacing(variables, in: String(decoding: json, as: UTF8.self)).utf8)) else {
            throw LedgerError(.invalidField, "a report is a JSON object")
        }
        let fixed = ReportSeal.seal(members).bytes
        let page = try ReportEncoding.html.bytes(json: fixed, csv: { "" })
        return [fixed, Array(replacing(variables, in: csv).utf8), page].map { LedgerHash.hex(LedgerHash.sha256($0)) }
    }

    @Test("subject dossiers of the demo story and of a simulated history: whole, as of a position, with a date of issue, on a checkpoint")
    func subjectDossier() async throws {
        let db = try await TestDatabase.create()
        try await DemoStoryProjectionTests.appendStory(db)
        try await ProjectionTestSupport.appendSimulated(db, log: "sim", families: 8, days: 20, seed: 15)
        try await ProjectionTestSupport.appendSimulated(db, log: "signed", families: 4, days: 10, seed: 7)
        _ = try await ReportCheckpointTests.sign(db, log: "signed", key: try NoteSigningKey(generatingWithName: "ledger.example.com"))
        try await ProjectionTestSupport.appendSimulated(db, log: "signed", families: 2, days: 3, seed: 8)
        let subjects = try await db.as(.auditor) { client async throws in
            (sim: try #require(try await ConsentRegisterReport.compute(.init(log: "sim"), pool: client).rows.compactMap(\.subject).last),
             signed: try #require(try await ConsentRegisterReport.compute(.init(log: "signed"), pool: client).rows.compactMap(\.subject).first))
        }
        let cases: [(name: String, log: String, subject: String, asOf: Int64?, dateOfIssue: String?)] = [
            ("demo", "demo", DemoHistory.subject, nil, nil),
            ("demo as of 6", "demo", DemoHistory.subject, 6, nil),
            ("demo issued early", "demo", DemoHistory.subject, nil, "2020-01-01"),
            ("sim", "sim", subjects.sim, nil, nil),
            ("demo as of 3", "demo", DemoHistory.subject, 3, nil),
            ("signed", "signed", subjects.signed, nil, nil),
        ]
        let expected: [String: [String]] = [
            "demo": [
                "4585bb24050cf60088b7aa8701edb9d76bc0d174ec62900e06e8493caec0b9ea",
                "e2c04afe66411cba15d2b92193350f0950b8a434f398a9c86c5bf35fd8e135f4",
                "c33f6c2acebf88dc52191964658a093b65bbdad86b3c7b0a62e28fc3d7d65f8f",
            ],
            "demo as of 6": [
                "a07cc584a89020f2b4e8318bf49613e0a60178bcdd63626050535897822e45c3",
                "97a135b65c7b841537744b073aed702c7a992df87996ba93d1852928971cb16f",
                "023dbe844d6aa8c0198f5032f4f1e25de52f747b63e4a3bc289e7ebf31853c3c",
            ],
            "demo as of 3": [
                "6003cac9c2c873dbe164b999229f8d6689ca7c473fec2be4c6cfac140dec3097",
                "54a77bce864750ad5c4605f9723ba33347830e4a28d44923e41aef5bdeee1871",
                "c97d94e7b215cd53f40cc2cf62e7431c2a35251828da0e0399a2eee02454965c",
            ],
            "demo issued early": [
                "266c6a50540382e497e6a63d290c30165dfbb0336d1cae21c54f1ed949f338b5",
                "e2c04afe66411cba15d2b92193350f0950b8a434f398a9c86c5bf35fd8e135f4",
                "6c4bbf1639692632fb7880e4c66e6e4ed65f1633985abe35144150c2cfacd98a",
            ],
            "sim": [
                "6a49ba401d033799297f237d13dfc38dc4491e60a7ee16ab562917e064002530",
                "638b2c71fd9864e07d746adaa8c296a9fa68b8138e96ea478d84e92f0a667a95",
                "5991647608ef1add971deb9123ac7bb7bd1d9e083b27b2889575338209d0201e",
            ],
            "signed": [
                "7bff0d7ba68b6069e8108c507a7e9ef27a1a50508023e7a559a52d0cfac99a4d",
                "8200fa027814cca1766fdf0b0ba30de94016104ae3fec2a446a307ff223cb69b",
                "d354ff9138bd8edb0d1a22d1523042da6ee91e82feddb6da98d2baca5c189aeb",
            ],
        ]
        try await db.as(.auditor) { client async throws in
            for c in cases {
                let report = try await SubjectDossierReport.compute(log: c.log, subject: c.subject, asOf: c.asOf, dateOfIssue: c.dateOfIssue,
                                                                    pool: client)
                let digests = try Self.pinned(json: report.json, csv: SubjectDossierReport.csv(report.steps),
                                              recorded: try await Self.recordedTimes(log: c.log, pool: client))
                #expect(digests == expected[c.name], "\(c.name): json, csv, html")
                #expect(!report.steps.isEmpty, "\(c.name): no steps")
            }
        }
    }

    @Test("regulator reports of the hand-built scenario and of a simulated history: several jurisdictions, as of a position, on a checkpoint")
    func regulator() async throws {
        let db = try await TestDatabase.create()
        try await RegulatorScenario.append(db)
        try await ProjectionTestSupport.appendSimulated(db, log: "sim", families: 8, days: 20, seed: 15)
        let year = (from: try #require(AsOf.date("2026-01-01T00:00:00Z")), to: try #require(AsOf.date("2027-01-01T00:00:00Z")))
        let cases: [(name: String, parameters: RegulatorReport.Parameters, policy: ReportPolicy)] = [
            ("tx", RegulatorReportTests.parameters(), .defaults),
            ("tx, US", RegulatorReportTests.parameters("US"), .defaults),
            ("tx, GB", RegulatorReportTests.parameters("GB"), .defaults),
            ("tx as of 14", RegulatorReportTests.parameters(asOf: 14), .defaults),
            ("tx with a policy", RegulatorReportTests.parameters(), try ReportPolicy.parse(Array("""
                {"dateOfIssue": "2026-10-02", "rules": {"access-without-approval": {"enabled": false},
                 "answer-after-question-expired": {"jurisdictions": ["US-CA"]}}}
                """.utf8))),
            ("sim, US", .init(log: "sim", jurisdiction: "US", from: year.from, to: year.to), .defaults),
            ("sim, EU", .init(log: "sim", jurisdiction: "EU", from: year.from, to: year.to), .defaults),
        ]
        let expected: [String: [String]] = [
            "tx": [
                "d59c16155cecf1d423bf84d9b07b2471355232ee7c0eda7e88105cc03cfc27ff",
                "406e3196b3d96b1bb43b472d6660ac517457db5884ef47d399cb61fa528b9ac0",
                "f9692ea2227da96b05ff25f930590046665fc01f3e374f233e27da4dbe52a761",
            ],
            "tx, US": [
                "67f20f1e4798c350adba46edaf618b4012951006538a26bd829ba5265305015b",
                "bcf66243a3e71b61d601d5bcbc65a7aafd29f5d9f5471b445044e3bdb19297ee",
                "d5c64bd03d8a1ae62f22a0feafc9e1ed7fde20363a9736f5e092fec11f4f3024",
            ],
            "tx, GB": [
                "c820c6c9f2c84fdabbc42fddc5b77e75737390a699a95dd2c004f826a65714d7",
                "b7860b16b4aefca4df0ec980ab60d2b0c1623200aff715f93ffd0e211d32a582",
                "6568d72c5c5daceb1f3297ec55b63c058bf771aed98071959b003266e288d277",
            ],
            "tx as of 14": [
                "b4ec620eca4572451cd8034646b9309f24573a6be4d60aea2bb4075b6dc7d5ac",
                "7781b9ede1ddd71acd6536ff187633458a56f06b6417c23b5a0b682fb24cf8e5",
                "ad19d7daf81ade493c929db498c95b768e2760e690b9f0626e6755aec300cb2a",
            ],
            "tx with a policy": [
                "88cfd9b21946f5506eebc8d9496d692ab014320483d3a6b5b8cb55e19c9b8c60",
                "3a5f95cf81817cfd4258fff40f12d75b53eadcaa0d3577f0e12fee9c58763d07",
                "6e24667eab15eeb367c121fabb236514dc62d1435a3e34b9b8449d592fe51310",
            ],
            "sim, US": [
                "b701d3cc30397011d7347b425e6ed5fd5b1cc7d0faf225bbb8d7035d75257809",
                "6cc2ff42b9047f455fc8a0aaaa97ec54295eea940c14cd613b28e12c6b5d0d05",
                "e6a3a74f482caffa3acecf91b40a45a755149d1b50b042a948f5780096f4ba62",
            ],
            "sim, EU": [
                "79528d82bbc94ddb9991087bde13d0a25877e8c74944b9b660ae6ac804835277",
                "fe8541c2f1bf296997734cd5a8d4967e37d613a6416ccab3a16c5cb36809ded4",
                "1c793fcab1b65dba2c3c3fac60a0efd59a6d6c9b199e715b6dd482edc01babe2",
            ],
            "tx on a checkpoint": [
                "5b91095e7b74346ad3042e09ccc015c276fa23add5d0ab5cade1b4adedb87665",
                "d0489b1fee5158d6027087865dfdbbbce97ec44ea0a443b42b3414e5f159182c",
                "c910992385b15bde2ed01972c135ff4b53e734527930ef0f8354c8d0498d1f67",
            ],
        ]
        var reports = try await db.as(.auditor) { client async throws in
            var reports: [(String, RegulatorReport.Result)] = []
            for c in cases { reports.append((c.name, try await RegulatorReport.compute(c.parameters, policy: c.policy, pool: client))) }
            return reports
        }
        let recorded = try await db.as(.auditor) { client async throws in
            (tx: try await Self.recordedTimes(log: RegulatorScenario.log, pool: client), sim: try await Self.recordedTimes(log: "sim", pool: client))
        }
        // On a signed checkpoint: the integrity section and the ledger name it.
        _ = try await ReportCheckpointTests.sign(db, log: "tx", key: try NoteSigningKey(generatingWithName: "ledger.example.com"))
        reports.append(("tx on a checkpoint", try await db.as(.auditor) { client async throws in
            try await RegulatorReport.compute(RegulatorReportTests.parameters(), pool: client)
        }))
        #expect(reports.count == cases.count + 1)
        for (name, report) in reports {
            let digests = try Self.pinned(json: report.json, csv: RegulatorCSV.csv(report.report),
                                          recorded: name.hasPrefix("sim") ? recorded.sim : recorded.tx)
            #expect(digests == expected[name], "\(name): json, csv, html")
        }
    }
}
