/// One step of a subject's dossier: one of the subject's events, in a plain sentence, with the
/// subject's state after it and the event's inclusion proof. Its members, in the order of
/// ``CodingKeys``, are the CSV's columns.
public struct SubjectDossierStep: Codable, Sendable, Equatable {
    /// The event's log position.
    public var position: Int
    /// The event's id.
    public var eventId: String
    /// The event's type (`AgeRangeShared`, …).
    public var type: String
    /// The stream it was appended to.
    public var stream: String
    /// When it occurred, by the device's clock (RFC 3339, UTC).
    public var occurredAt: String
    /// When the ledger recorded it.
    public var recordedAt: String
    /// Who caused it (`app`, `guardian`, …).
    public var actor: String
    /// The app's bundle id, when it names one.
    @Nullable public var app: String?
    /// What happened, in a sentence without personal data.
    public var sentence: String
    /// Whether the event changed what the ledger keeps about the subject.
    public var changedState: Bool
    /// The subject's state after the event; null while the ledger keeps nothing about them.
    @Nullable public var state: SubjectDossierState?
    /// The event's inclusion proof in the report's checkpoint; null after it or without one.
    @Nullable public var inclusionProof: SubjectDossierInclusionProof?

    /// The members, in the order of the CSV's columns.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case position, eventId, type, stream, occurredAt, recordedAt, actor, app, sentence, changedState, state, inclusionProof
    }

    /// The CSV header, and the members of each step in the JSON.
    public static let columns = CodingKeys.allCases.map(\.rawValue)

    /// A step.
    public init(position: Int, eventId: String, type: String, stream: String, occurredAt: String, recordedAt: String, actor: String,
                app: String?, sentence: String, changedState: Bool, state: SubjectDossierState?,
                inclusionProof: SubjectDossierInclusionProof?) {
        self.position = position
        self.eventId = eventId
        self.type = type
        self.stream = stream
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.actor = actor
        self.app = app
        self.sentence = sentence
        self.changedState = changedState
        self.state = state
        self.inclusionProof = inclusionProof
    }
}

/// An event a dossier's findings cite that is not one of the subject's own (a significant change
/// is declared for an app, not a subject), so that the dossier holds every event it cites.
public struct SubjectDossierCitedEvent: Codable, Sendable, Equatable {
    /// The event's log position.
    public var position: Int
    /// The event's id.
    public var eventId: String
    /// The event's type.
    public var type: String
    /// The stream it was appended to.
    public var stream: String
    /// When it occurred, by the device's clock.
    public var occurredAt: String
    /// When the ledger recorded it.
    public var recordedAt: String
    /// Who caused it.
    public var actor: String
    /// The app's bundle id, when it names one.
    @Nullable public var app: String?
    /// What happened, in a sentence.
    public var sentence: String
    /// The event's inclusion proof in the report's checkpoint; null after it or without one.
    @Nullable public var inclusionProof: SubjectDossierInclusionProof?

    /// A cited event.
    public init(position: Int, eventId: String, type: String, stream: String, occurredAt: String, recordedAt: String, actor: String,
                app: String?, sentence: String, inclusionProof: SubjectDossierInclusionProof?) {
        self.position = position
        self.eventId = eventId
        self.type = type
        self.stream = stream
        self.occurredAt = occurredAt
        self.recordedAt = recordedAt
        self.actor = actor
        self.app = app
        self.sentence = sentence
        self.inclusionProof = inclusionProof
    }
}

/// An event's RFC 9162 inclusion proof in the tree of the checkpoint the report rests on:
/// `consent-ledger prove inclusion` gives the record it checks, offline, against the signed root.
public struct SubjectDossierInclusionProof: Codable, Sendable, Equatable {
    /// The checkpoint's tree size.
    public var treeSize: UInt64
    /// The event's leaf hash, hex.
    public var leafHash: String
    /// The audit path from the leaf to the root, hex.
    public var path: [String]

    /// A proof.
    public init(treeSize: UInt64, leafHash: String, path: [String]) {
        self.treeSize = treeSize
        self.leafHash = leafHash
        self.path = path
    }
}

/// What one of the ledger's rules (docs/rules.md) found about one of the subject's events.
public struct SubjectDossierFinding: Codable, Sendable, Equatable {
    /// The rule's id.
    public var rule: String
    /// `violation` (a rule of the ledger) or `anomaly`.
    public var kind: String
    /// The position of the event judged.
    public var position: Int
    /// That event's id.
    public var eventId: String
    /// What was found, in a sentence.
    public var detail: String
    /// Every position the finding rests on.
    public var evidencePositions: [Int]
    /// Why a person should look at it, when the rule says so.
    @Nullable public var needsReview: String?

    /// A finding.
    public init(rule: String, kind: String, position: Int, eventId: String, detail: String, evidencePositions: [Int], needsReview: String?) {
        self.rule = rule
        self.kind = kind
        self.position = position
        self.eventId = eventId
        self.detail = detail
        self.evidencePositions = evidencePositions
        self.needsReview = needsReview
    }
}
