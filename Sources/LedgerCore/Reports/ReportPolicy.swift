import Foundation

/// The policy a report applies and prints (docs/design/reports.md: a rule's window comes from a policy file,
/// with defaults): how long a rescission may take to enforce, and the written retention policy
/// (COPPA 16 CFR 312.10) in force.
///
/// A policy file is a JSON object with any of these members (the rest take their defaults):
/// ```json
/// {"rescissionEnforcementWindowHours": 24,
///  "retention": {"policyId": "retention-2026-01", "statement": "Age signals are kept 3 years …"},
///  "issuer": {"organisation": "Example Kids Ltd", "contact": "compliance@example.com"},
///  "dateOfIssue": "2026-11-24"}
/// ```
/// `issuer` and `dateOfIssue` are what a printed report shows as who issued it and when, on its
/// first page and in every page's running footer; they come from the file, never from the clock,
/// so the same report with the same file is the same page.
public struct ReportPolicy: Sendable, Equatable {
    /// Where the policy came from: `built-in defaults`, or `file sha256:<hex of the file's bytes>`.
    public var source: String
    /// How long after a `ConsentRescinded` an `AccessGateApplied` closing the app's feature may come.
    public var rescissionEnforcementWindowHours: Int
    /// The retention policy's id, as `RetentionApplied` events cite it.
    public var retentionPolicyId: String
    /// The retention policy in words.
    public var retentionStatement: String
    /// Who issues the report, when the file names them.
    public var issuer: Issuer?
    /// The report's date of issue (`YYYY-MM-DD`), when the file gives one.
    public var dateOfIssue: String?

    /// The organisation that issues a report, and how to reach it.
    public struct Issuer: Sendable, Equatable {
        /// Its name, as the report prints it.
        public var organisation: String
        /// An address, a mailbox or a telephone number, if given.
        public var contact: String?

        /// An issuer.
        public init(organisation: String, contact: String? = nil) {
            self.organisation = organisation
            self.contact = contact
        }
    }

    /// The defaults: a 24-hour rescission window and no written retention policy given.
    public static let defaults = ReportPolicy(
        source: "built-in defaults", rescissionEnforcementWindowHours: 24, retentionPolicyId: "not stated",
        retentionStatement: "No retention policy file was given to this report. The ledger keeps every event; "
            + "personal data is erased by destroying the subject's key (SubjectErased), listed below.")

    /// The members a policy file may have.
    public static let members = ["rescissionEnforcementWindowHours", "retention", "issuer", "dateOfIssue"]

    /// Reads a policy file's bytes; members left out keep their defaults.
    /// - Throws: `invalid-json` or `invalid-field` naming the member and what it must be.
    public static func parse(_ bytes: [UInt8]) throws(LedgerError) -> ReportPolicy {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw LedgerError(.invalidJSON, "the policy file is not JSON: \(error)", hint: example)
        }
        guard let members = value.objectValue else {
            throw LedgerError(.invalidField, "the policy file must hold one JSON object", hint: example)
        }
        if let unknown = members.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw LedgerError(.unknownField, "the policy file has an unknown member \"\(unknown)\"", field: unknown,
                              hint: "Members: \(Self.members.joined(separator: ", ")). " + example)
        }
        var policy = defaults
        policy.source = "file sha256:" + LedgerHash.hex(LedgerHash.sha256(bytes))
        if let hours = members["rescissionEnforcementWindowHours"] {
            guard let value = hours.intValue, (1...8760).contains(value) else {
                throw LedgerError(.invalidField, "rescissionEnforcementWindowHours must be a whole number of hours from 1 to 8760",
                                  field: "rescissionEnforcementWindowHours", hint: example)
            }
            policy.rescissionEnforcementWindowHours = value
        }
        if let retention = members["retention"] {
            guard let object = retention.objectValue, Set(object.keys) == ["policyId", "statement"],
                  let id = object["policyId"]?.stringValue, !id.isEmpty,
                  let statement = object["statement"]?.stringValue, !statement.isEmpty else {
                throw LedgerError(.invalidField, "retention must be an object with two non-empty strings, policyId and statement",
                                  field: "retention", hint: example)
            }
            policy.retentionPolicyId = id
            policy.retentionStatement = statement
        }
        if let issuer = members["issuer"] {
            guard let object = issuer.objectValue, object.keys.allSatisfy({ ["organisation", "contact"].contains($0) }),
                  let organisation = object["organisation"]?.stringValue, (1...200).contains(organisation.count),
                  object["contact"].map({ $0.stringValue.map { (1...200).contains($0.count) } ?? false }) ?? true else {
                throw LedgerError(.invalidField, "issuer must be an object with organisation (1 to 200 characters) and, optionally, contact (1 to 200)",
                                  field: "issuer", hint: example)
            }
            policy.issuer = Issuer(organisation: organisation, contact: object["contact"]?.stringValue)
        }
        if let date = members["dateOfIssue"] {
            guard let text = date.stringValue, Self.isCalendarDate(text) else {
                throw LedgerError(.invalidField, "dateOfIssue must be a calendar date written YYYY-MM-DD, such as 2026-11-24",
                                  field: "dateOfIssue", hint: example)
            }
            policy.dateOfIssue = text
        }
        return policy
    }

    /// Whether `text` is a real calendar date in the form `YYYY-MM-DD`.
    static func isCalendarDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    /// As printed in a report.
    public var json: JSONValue {
        ["source": .string(source),
         "rescissionEnforcementWindowHours": .number(Double(rescissionEnforcementWindowHours)),
         "retention": ["policyId": .string(retentionPolicyId), "statement": .string(retentionStatement)]]
    }

    private static let example = #"Example: {"rescissionEnforcementWindowHours": 24, "retention": {"policyId": "retention-2026-01", "statement": "…"}, "issuer": {"organisation": "Example Kids Ltd", "contact": "compliance@example.com"}, "dateOfIssue": "2026-11-24"}"#
}
