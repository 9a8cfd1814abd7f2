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
                "43d8fb253898206fe8dfef94e3b7cfcaea66d837a986fd867322772bf54a3a0d",
                "9285e320066016c00b38d21f6b543dab60c106e27819f70136295ffd5b853131",
            ],
            "consent-register-empty": [
                "c623d526f5e37e35c64fc0592fb49a4e681283c5b2673e30a05ea4e3aaa7fc02",
                "373a1de7d85fc354aa0e99eb040b982e842f408feded25d86fff2670827c3322",
            ],
            "subject-dossier": [
                "785365a7cb07d03d6b36cff518aac94845295220275f3b4f86b088b55fa54f12",
                "290eb9c92fed00589a6ec1baa4245a005f8927502aeb57ce823aac2668438006",
            ],
            "regulator": [
                "3614bcd4b1ee1aadf6130ef3fe77355b02cbca2d43f63ca35e02cb945226bc6e",
                "b1acb7c9491d2358f38572e7ff25a70b88285d3ce306aee0f701d68d42a1314e",
            ],
            "regulator-quiet": [
                "2d8f28d287eb8d0d2ba38bd886bb4b966c3605720a53a8b2ea5040bd6d76ef43",
                "c1f1e47d7ab2702fdb6337e44e314dd44d94d460f8b76489cd80357b5c86d815",
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
