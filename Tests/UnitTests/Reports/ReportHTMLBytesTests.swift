import LedgerCore
@testable import LedgerReportHTML
import Testing

/// The sample reports' pages pinned by their SHA-256: a change in how a page is made (decision
/// 0073: it is rendered from the report's type) that changes one byte fails here. The samples
/// are fixed JSON (``ReportHTMLSamples``), so every byte of each page is fixed.
@Suite("HTML reports: the sample pages' bytes")
struct ReportHTMLBytesTests {
    @Test("each sample page, with and without a policy, is the same bytes as before")
    func samplePagesArePinned() throws {
        let named = try ReportPolicy.parse(Array("""
            {"issuer": {"organisation": "Example Kids Apps Ltd", "contact": "privacy@example.com"}, "dateOfIssue": "2026-04-01",
             "signOff": {"preparedBy": "A. Auditor", "reviewedBy": "B. Reviewer"}}
            """.utf8))
        let pages: [(String, JSONValue)] = [
            ("consent-register", try ReportHTMLSamples.register()),
            ("consent-register-empty", try ReportHTMLSamples.register(rows: [])),
            ("subject-dossier", try ReportHTMLSamples.dossier()),
            ("regulator", try ReportHTMLSamples.regulator()),
            ("regulator-quiet", try ReportHTMLSamples.regulator(quiet: true)),
        ]
        let expected: [String: [String]] = [
            "consent-register": [
                "5bd960d711cc4cea8749b40f4e365ac129732ce456c0efde9bf73a7fe9431ffc",
                "f4ca7565ff8943c5fb36636f6867d13a5c39eda60e6aa3444c38307980ce5ba8",
            ],
            "consent-register-empty": [
                "abd043f06b1420c6cbe075a0d0ae1c2f219190eafeea7850bd0ed301cc862ab6",
                "b23687f58f2f68f5f8932cb621b441d2d0402d5fb9ced327f4d46b44a9739da1",
            ],
            "subject-dossier": [
                "785365a7cb07d03d6b36cff518aac94845295220275f3b4f86b088b55fa54f12",
                "290eb9c92fed00589a6ec1baa4245a005f8927502aeb57ce823aac2668438006",
            ],
            "regulator": [
                "264e4fd20ba466ef7a5b7ac6be4d2609579b20a94cdf2c2aac4b87ae70d48aef",
                "741a49f118c535269d718a3b2e9777613686703dc62ba92033aec1ec2934b854",
            ],
            "regulator-quiet": [
                "cec3b2555b67e46e2a1601e4ff0067491ad634816cc42ba7befb1d012c49cde9",
                "1259f83fd2e35b0cd8c88cace16b6d51beed0f6a59fb2af66b760da409a939db",
            ],
        ]
        for (name, report) in pages {
            let digests = try [ReportPolicy.defaults, named].map { policy in
                LedgerHash.hex(LedgerHash.sha256(Array(try ReportHTML.render(report, policy: policy).utf8)))
            }
            #expect(digests == expected[name], "\(name)")
        }
    }
}
