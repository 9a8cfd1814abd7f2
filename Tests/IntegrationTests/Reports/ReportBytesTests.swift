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
                "463b567c7a8fa250d3fe4c15467decd90f6077833767ba561ed27ff775b01cfc",
                "74e47f35c37ed34b7c91647284af6f7c892c9dbc7cc53aa8f43fdeedd179e0c1",
                "9c208a871daee67e834f2d5ded87146eaafb47aef70578db3aa442766bde26bd",
            ],
            "demo as of 6": [
                "154d3a010b33c0ad9aebab620946e19aa57e0cdeb765a1bba73a12ebac3b0f36",
                "2468435931c4ef1f1b1d12bae7c57637b28eaa033c72c880c4643d8415bab2aa",
                "d64758f977d19883d3dead243209c7e14e16af151e53d9228fff3799e48bc462",
            ],
            "sim": [
                "04659224ca159d3b5d55c1bfe6f345469762a95351da46954aa2144f71b28cae",
                "02e949f87569d4c436d1a94c56c22313f74077f341b9a5e00771bce801a89ace",
                "8816d6968aaa25a676cc07e6805b2ac9fca7959a18cc4ae8892afee0b7b478bc",
            ],
            "sim in a period": [
                "653260dedd9b3b180dab99ef40ac03f81ed2ee9487d6eb5ba79606a181af5445",
                "eef395e362fd9fdd29639f7bc7592d11ef54fcbdbf71b57a7a3877d9266d8aed",
                "7f47186b164c2129d39e3c857ab3a463ee3c7f7de51352e3c6e6716acdcda8bb",
            ],
            "sim, an empty period": [
                "18a47550d7dc3e30cf0d49e17a45c75cf49acd1add37e727d35a2d5647bdc288",
                "74e055cd22046edba82a880c7b91b704df023c919e9866789e0f90bf4d435bcc",
                "99b40a2b0972603849bb776bd6e00b3cc0cbe768424a0dcc062c3b19ca173204",
            ],
            "demo, one subject": [
                "9528aad7e19f1d22c6b718f42146ee4e745993aae86c2ae8e0dfc7253b903131",
                "74e47f35c37ed34b7c91647284af6f7c892c9dbc7cc53aa8f43fdeedd179e0c1",
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
                "f7e5e32eb9ae9c1f025414222e3b20ef5768c988825f3107e47336bc041ae5eb",
                "8f59629586ff9078faa297326ee28488be4d579e225035a0b89fa737705a95ce",
                "eac170df0dc29fd6ad4bb004358cd27e51565c8612c82c2f95d015c2e34f27a2",
            ],
            "tx, US": [
                "50f02309d4d77f7ee67c99f6be601ea7eff01dd108f8e1f44c21a23b0d6f2fdf",
                "96076dfe29da0fb148e8666f72eaca277479e4e1ec358f0f4f411c976ae8fd9d",
                "2dbd0f8e63cafe34d987876dabd44a0c4ce11b7a80b7dca325955ac872455a2a",
            ],
            "tx, GB": [
                "87ab9670daa9cd336f1687b462ece2e5d23ad346960c478b0c2e2bcb31318137",
                "0271585e406c4e2eb372168a871cc31413de35187f7c4e243379ca526eb1ed49",
                "d2025b55f38ccb2844c93b73eb8a81889a87b01af23be10a3b692283edd1d674",
            ],
            "tx as of 14": [
                "7947c23581168a37a71d3d74fb9f6ef42ca3e28be01b9678428b33b821a8fc6f",
                "17d49dc072d1fde3c922fdd69da6287b384dceb39a9424be37b524b8bb1013a7",
                "b16520f01eefa135a29f76c19e4f8f9cd89180366705fa1328b70b7d457431a2",
            ],
            "tx with a policy": [
                "9c3d1b21465aff1d59cb18f3f1012a840387e84164487357fef7ed77433baecd",
                "ecdc45d58bd01b8787e0d819aaa947b59563e45551d9c0d21ce7788f819d2c1d",
                "3bf40e1f2a526fd57efbbba6da8ed9e3b35b6a6087041227305cbdfe3ae37f16",
            ],
            "sim, US": [
                "15e619d5c36707b4d739fe80a2a572f40d81336a912327d94ef161486476f0d3",
                "da7d8358a2f6ee823e40f48ecbdc20e5977af88469626a8507e97696fe27fcf6",
                "14346e55caec6b4b05edbd3bb5c630073ebe29a353e89444a78dccfa435eeccf",
            ],
            "sim, EU": [
                "b0e8151accb28391196660834dbe5009debe436d29b7b326e538f7f70ebfae39",
                "581cec5b363f671643d561aa8bd7352c02adcd7e359429305bb17449fddc8ab0",
                "f6b95a19843eba5a93806aed5cdac33455b7cbf261ad1f745dcad39797b62b10",
            ],
            "tx on a checkpoint": [
                "b6351e5cd35ecb8c5933872b588b9cc30135d13ba0c6a16e4d183f799fddca9c",
                "e84b91b51d80eb386e756cef3bc7d30c8006e150264f4654d0c3025fcf8b78c0",
                "42dcaaddd68d17afe12cf8d8e2ea6e3060b3ee84db3ed1b7dbbbb12c13405171",
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
