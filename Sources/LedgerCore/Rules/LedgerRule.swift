/// One rule the ledger judges events by: its id (the `kind` of the anomalies projection's
/// findings), what it says in plain words, what it rests on in law or platform documents, the
/// events it reads and what it cites as evidence.
///
/// The rules catalogue (``RuleCatalogue``) is the one list of them: docs/rules.md is written from
/// it, reports and `explain` take their descriptions from it, and a test checks that the
/// projection's SQL finds exactly its kinds.
public struct LedgerRule: Sendable, Identifiable {
    /// Whether a finding is a violation a regulator report lists, or a surprising fact kept as evidence.
    public enum Kind: String, Sendable {
        /// A rule broken (findings of source `rule`).
        case violation
        /// A fact the catalogue allows but that should not happen (source `catalogue`).
        case anomaly

        /// The anomalies projection's `source` column for a finding of this kind: `rule` for a
        /// violation, `catalogue` for a surprising fact. The one place the two are mapped.
        public var findingSource: String { self == .violation ? "rule" : "catalogue" }

        /// The kind of a finding whose `source` column reads `source` (anything but `rule` is a
        /// surprising fact, as the projection writes only the two).
        public init(findingSource source: String) { self = source == "rule" ? .violation : .anomaly }
    }

    /// One legal or platform source of a rule, with the provision it rests on.
    public struct Basis: Sendable {
        /// The law or document.
        public let law: Law
        /// What in it the rule follows, in a sentence.
        public let provision: String

        /// A basis from its parts.
        public init(_ law: Law, _ provision: String) {
            self.law = law
            self.provision = provision
        }
    }

    /// The id, as findings, reports and `explain` name the rule (`access-after-denial`).
    public let id: String
    /// Violation or anomaly.
    public let kind: Kind
    /// The rule in a sentence or two, as a compliance reader checks it against the events.
    public let statement: String
    /// The event type the finding is recorded on (the judged event).
    public let judges: String
    /// Every event type the rule reads.
    public let reads: [String]
    /// What the finding cites as evidence.
    public let evidence: String
    /// The laws and platform documents it rests on.
    public let basis: [Basis]
    /// The policy setting that governs it, if any (a member of the policy file).
    public let policySetting: String?

    /// A rule from its parts.
    public init(id: String, kind: Kind, statement: String, judges: String, reads: [String], evidence: String,
                basis: [Basis], policySetting: String? = nil) {
        self.id = id
        self.kind = kind
        self.statement = statement
        self.judges = judges
        self.reads = reads
        self.evidence = evidence
        self.basis = basis
        self.policySetting = policySetting
    }
}
