import Foundation

/// The policy a report applies and prints (docs/design/reports.md: a rule's window comes from a policy file,
/// with defaults): how long a rescission may take to enforce, and the written retention policy
/// (COPPA 16 CFR 312.10) in force.
///
/// A policy file is a JSON object with any of these members (the rest take their defaults):
/// ```json
/// {"rescissionEnforcementWindowHours": 24,
///  "ageSignalRecheckDays": 365,
///  "retention": {"policyId": "retention-2026-01", "statement": "Age signals are kept 3 years …"},
///  "issuer": {"organisation": "Example Kids Ltd", "contact": "compliance@example.com"},
///  "dateOfIssue": "2026-11-24",
///  "signOff": {"preparedBy": "A. Auditor, compliance", "reviewedBy": "B. Counsel"}}
/// ```
/// `policyId` and `policyVersion` name the policy itself; `rules` governs the rules of the rules
/// catalogue (docs/rules.md) by id: `{"access-opened-without-basis": {"enabled": false},
/// "unverified-adult-access": {"jurisdictions": ["US-TX", "US-UT"]}}` turns the first off and
/// applies the second only to events of those jurisdictions (and the places within them). A rule
/// left out is on everywhere. The projections find every rule regardless; the policy decides
/// which findings a report lists and `explain` counts as broken. `ageSignalRecheckDays` is the
/// threshold of `age-signal-expired`, which is judged only when the policy sets it.
///
/// `issuer` and `dateOfIssue` are what a printed report shows as who issued it and when, on its
/// first page and in every page's running footer; they come from the file, never from the clock,
/// so the same report with the same file is the same page. `signOff` names who prepared and who
/// reviewed it: every printed report ends its findings with a sign-off block, with lines to sign.
public struct ReportPolicy: Sendable, Equatable {
    /// Where the policy came from: `built-in defaults`, or `file sha256:<hex of the file's bytes>`.
    public var source: String
    /// How long after a `ConsentRescinded` an `AccessGateApplied` closing the app's feature may come.
    public var rescissionEnforcementWindowHours: Int
    /// How many days an age signal may be relied on before the app must ask again: a feature
    /// opened on an older one breaks `age-signal-expired`. Nil (the default): the policy sets no
    /// interval and the rule is not judged.
    public var ageSignalRecheckDays: Int?
    /// The re-check interval in seconds, when the policy sets one.
    public var ageSignalRecheckSeconds: Int64? { ageSignalRecheckDays.map { Int64($0) * 86_400 } }
    /// Whether an age signal `ageSeconds` old is too old to rely on (`age-signal-expired`); never
    /// when the policy sets no interval.
    public func ageSignalExpired(ageSeconds: Int64) -> Bool { ageSignalRecheckSeconds.map { ageSeconds > $0 } ?? false }
    /// The retention policy's id, as `RetentionApplied` events cite it.
    public var retentionPolicyId: String
    /// The retention policy in words.
    public var retentionStatement: String
    /// Who issues the report, when the file names them.
    public var issuer: Issuer?
    /// The report's date of issue (`YYYY-MM-DD`), when the file gives one.
    public var dateOfIssue: String?
    /// Who prepares and who reviews the printed report (`signOff`), when the file names them: the
    /// page's sign-off block prints them, with lines to sign.
    public var signOff: SignOff?

    /// The people a printed report names as preparing and reviewing it.
    public struct SignOff: Sendable, Equatable {
        /// Who prepared it (a name or a role).
        public var preparedBy: String?
        /// Who reviewed it.
        public var reviewedBy: String?
        /// Creates it.
        public init(preparedBy: String?, reviewedBy: String?) {
            self.preparedBy = preparedBy
            self.reviewedBy = reviewedBy
        }
    }
    /// The policy's own id, when the file names it.
    public var policyId: String?
    /// The policy's version, when the file names it.
    public var policyVersion: String?
    /// Settings of the rules the file names, by rule id; every other rule is on everywhere.
    public var rules: [String: RuleSetting] = [:]

    /// How the policy applies one rule.
    public struct RuleSetting: Sendable, Equatable {
        /// Off: the rule's findings are not listed.
        public var enabled: Bool
        /// When given, the rule applies only to events of these jurisdictions (or within them).
        public var jurisdictions: [String]?

        /// A setting from its parts.
        public init(enabled: Bool = true, jurisdictions: [String]? = nil) {
            self.enabled = enabled
            self.jurisdictions = jurisdictions
        }
    }

    /// Whether `rule` applies to an event recorded for `jurisdiction` (nil: the event named none,
    /// which only a rule without a jurisdiction list applies to).
    public func applies(_ rule: String, jurisdiction: String?) -> Bool {
        guard let setting = rules[rule] else { return true }
        guard setting.enabled else { return false }
        guard let scopes = setting.jurisdictions else { return true }
        guard let jurisdiction else { return false }
        return scopes.contains { JurisdictionCatalogue.standard.contains($0, jurisdiction) }
    }

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
    public static let members = ["policyId", "policyVersion", "rules", "rescissionEnforcementWindowHours", "ageSignalRecheckDays",
                                 "retention", "issuer", "dateOfIssue", "signOff"]

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
        if let days = members["ageSignalRecheckDays"] {
            guard let value = days.intValue, (1...3650).contains(value) else {
                throw LedgerError(.invalidField, "ageSignalRecheckDays must be a whole number of days from 1 to 3650",
                                  field: "ageSignalRecheckDays", hint: example)
            }
            policy.ageSignalRecheckDays = value
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
        for member in ["policyId", "policyVersion"] {
            guard let value = members[member] else { continue }
            guard let text = value.stringValue, (1...100).contains(text.count) else {
                throw LedgerError(.invalidField, "\(member) must be a string of 1 to 100 characters", field: member, hint: example)
            }
            if member == "policyId" { policy.policyId = text } else { policy.policyVersion = text }
        }
        if let rules = members["rules"] {
            guard let object = rules.objectValue else {
                throw LedgerError(.invalidField, "rules must be an object whose members are rule ids (docs/rules.md)", field: "rules",
                                  hint: example)
            }
            for (id, value) in object {
                guard RuleCatalogue.rule(id) != nil else {
                    throw LedgerError(.invalidField, "rules names \"\(id)\", which is no rule of the rules catalogue", field: "rules",
                                      hint: "The rules: \(RuleCatalogue.all.map(\.id).joined(separator: ", ")) (docs/rules.md).")
                }
                guard let setting = value.objectValue, setting.keys.allSatisfy({ ["enabled", "jurisdictions"].contains($0) }),
                      setting["enabled"].map({ $0.boolValue != nil }) ?? true else {
                    throw LedgerError(.invalidField, "rules.\(id) must be an object with enabled (true or false) and/or jurisdictions (a list of codes)",
                                      field: "rules", hint: example)
                }
                var codes: [String]?
                if let list = setting["jurisdictions"] {
                    guard let items = list.arrayValue, !items.isEmpty else {
                        throw LedgerError(.invalidField, "rules.\(id).jurisdictions must be a non-empty list of ISO 3166 codes (or EU)",
                                          field: "rules", hint: example)
                    }
                    codes = []
                    for item in items {
                        guard let code = item.stringValue else {
                            throw LedgerError(.invalidField, "rules.\(id).jurisdictions must hold codes as strings", field: "rules", hint: example)
                        }
                        guard JurisdictionCatalogue.standard.isKnown(code) else {
                            var error = JurisdictionCatalogue.standard.unknown(code)
                            error.message = "rules.\(id).jurisdictions: " + error.message
                            throw error
                        }
                        codes?.append(code)
                    }
                }
                policy.rules[id] = RuleSetting(enabled: setting["enabled"]?.boolValue ?? true, jurisdictions: codes)
            }
        }
        if let signOff = members["signOff"] {
            func person(_ key: String) -> Bool {
                signOff[key].map { $0.stringValue.map { (1...200).contains($0.count) } ?? false } ?? true
            }
            guard let object = signOff.objectValue, !object.isEmpty,
                  object.keys.allSatisfy({ ["preparedBy", "reviewedBy"].contains($0) }), person("preparedBy"), person("reviewedBy") else {
                throw LedgerError(.invalidField, "signOff must be an object with preparedBy and/or reviewedBy, each 1 to 200 characters",
                                  field: "signOff", hint: example)
            }
            policy.signOff = SignOff(preparedBy: object["preparedBy"]?.stringValue, reviewedBy: object["reviewedBy"]?.stringValue)
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
        ["source": .string(source), "policyId": policyId.map(JSONValue.string) ?? .null,
         "policyVersion": policyVersion.map(JSONValue.string) ?? .null,
         "rules": .array(RuleCatalogue.violations.map { rule in
             let setting = rules[rule.id] ?? RuleSetting()
             return ["rule": .string(rule.id), "enabled": .bool(setting.enabled),
                     "jurisdictions": setting.jurisdictions.map { .array($0.map(JSONValue.string)) } ?? .null]
         }),
         "rescissionEnforcementWindowHours": .number(Double(rescissionEnforcementWindowHours)),
         "ageSignalRecheckDays": ageSignalRecheckDays.map { .number(Double($0)) } ?? .null,
         "retention": ["policyId": .string(retentionPolicyId), "statement": .string(retentionStatement)]]
    }

    private static let example = #"Example: {"policyId": "acme-consent", "policyVersion": "2026-11", "rules": {"access-opened-without-basis": {"enabled": false}, "unverified-adult-access": {"jurisdictions": ["US-TX", "US-UT"]}}, "rescissionEnforcementWindowHours": 24, "ageSignalRecheckDays": 365, "retention": {"policyId": "retention-2026-01", "statement": "…"}, "issuer": {"organisation": "Example Kids Ltd", "contact": "compliance@example.com"}, "dateOfIssue": "2026-11-24", "signOff": {"preparedBy": "A. Auditor, compliance", "reviewedBy": "B. Counsel"}}"#
}
