import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportHTML
import LedgerSimulation
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
}
