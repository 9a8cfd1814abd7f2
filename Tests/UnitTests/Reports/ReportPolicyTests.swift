import Foundation
import LedgerCore
import Testing

@Suite("Report policy files: issuer and date of issue")
struct ReportPolicyTests {
    static func parse(_ text: String) throws(LedgerError) -> ReportPolicy { try ReportPolicy.parse(Array(text.utf8)) }

    @Test("issuer and dateOfIssue are read; left out, they are absent")
    func read() throws {
        let policy = try Self.parse(#"{"issuer": {"organisation": "Example Kids Ltd", "contact": "compliance@example.com"}, "dateOfIssue": "2028-02-29"}"#)
        #expect(policy.issuer == ReportPolicy.Issuer(organisation: "Example Kids Ltd", contact: "compliance@example.com"))
        #expect(policy.dateOfIssue == "2028-02-29")
        #expect(policy.rescissionEnforcementWindowHours == 24)
        let bare = try Self.parse(#"{"issuer": {"organisation": "Example Kids Ltd"}}"#)
        #expect(bare.issuer?.contact == nil && bare.dateOfIssue == nil)
        #expect(ReportPolicy.defaults.issuer == nil && ReportPolicy.defaults.dateOfIssue == nil)
    }

    @Test("a malformed issuer or date is refused, naming the member and how to write it", arguments: [
        (#"{"issuer": "Example Kids Ltd"}"#, "issuer"),
        (#"{"issuer": {"name": "Example Kids Ltd"}}"#, "issuer"),
        (#"{"issuer": {"organisation": ""}}"#, "issuer"),
        (#"{"issuer": {"organisation": "X", "contact": 7}}"#, "issuer"),
        (#"{"dateOfIssue": "24/11/2026"}"#, "dateOfIssue"),
        (#"{"dateOfIssue": "2026-02-29"}"#, "dateOfIssue"),
        (#"{"dateOfIssue": "2026-13-01"}"#, "dateOfIssue"),
        (#"{"dateOfIssue": 20261124}"#, "dateOfIssue"),
        (#"{"dateOfIssued": "2026-11-24"}"#, "dateOfIssued"),
    ])
    func refused(text: String, field: String) {
        #expect { try Self.parse(text) } throws: { error in
            guard let error = error as? LedgerError else { return false }
            return error.field == field && (error.hint ?? "").contains(#""dateOfIssue": "2026-11-24""#)
        }
    }
}
