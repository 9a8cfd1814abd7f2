import Foundation

/// The policy a report applies and prints (REPORTS.md: a rule's window comes from a policy file,
/// with defaults): how long a rescission may take to enforce, and the written retention policy
/// (COPPA 16 CFR 312.10) in force.
///
/// A policy file is a JSON object with any of these members (the rest take their defaults):
/// ```json
/// {"rescissionEnforcementWindowHours": 24,
///  "retention": {"policyId": "retention-2026-01", "statement": "Age signals are kept 3 years …"}}
/// ```
public struct ReportPolicy: Sendable, Equatable {
    /// Where the policy came from: `built-in defaults`, or `file sha256:<hex of the file's bytes>`.
    public var source: String
    /// How long after a `ConsentRescinded` an `AccessGateApplied` closing the app's feature may come.
    public var rescissionEnforcementWindowHours: Int
    /// The retention policy's id, as `RetentionApplied` events cite it.
    public var retentionPolicyId: String
    /// The retention policy in words.
    public var retentionStatement: String

    /// The defaults: a 24-hour rescission window and no written retention policy given.
    public static let defaults = ReportPolicy(
        source: "built-in defaults", rescissionEnforcementWindowHours: 24, retentionPolicyId: "not stated",
        retentionStatement: "No retention policy file was given to this report. The ledger keeps every event; "
            + "personal data is erased by destroying the subject's key (SubjectErased), listed below.")

    /// The members a policy file may have.
    public static let members = ["rescissionEnforcementWindowHours", "retention"]

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
        return policy
    }

    /// As printed in a report.
    public var json: JSONValue {
        ["source": .string(source),
         "rescissionEnforcementWindowHours": .number(Double(rescissionEnforcementWindowHours)),
         "retention": ["policyId": .string(retentionPolicyId), "statement": .string(retentionStatement)]]
    }

    private static let example = #"Example: {"rescissionEnforcementWindowHours": 24, "retention": {"policyId": "retention-2026-01", "statement": "…"}}"#
}
