/// One step of a subject's dossier: one of the subject's events (``SubjectDossierEvent``: in a
/// plain sentence, with its inclusion proof) and the subject's state after it. In the JSON and the
/// CSV it is one flat row: the event's members with `changedState` and `state` before
/// `inclusionProof` (``columns``); in Swift the event's members read through the step
/// (`step.position`).
@dynamicMemberLookup
public struct SubjectDossierStep: Codable, Sendable, Equatable {
    /// The event.
    public var event: SubjectDossierEvent
    /// Whether the event changed what the ledger keeps about the subject.
    public var changedState: Bool
    /// The subject's state after the event; null while the ledger keeps nothing about them.
    @Nullable public var state: SubjectDossierState?

    /// The step's own members, written beside the event's.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case changedState, state
    }

    /// The CSV header, and the members of each step in the JSON: the event's, with the step's own
    /// before the inclusion proof.
    public static let columns: [String] = SubjectDossierEvent.CodingKeys.allCases.flatMap { key -> [String] in
        key == .inclusionProof ? CodingKeys.allCases.map(\.rawValue) + [key.rawValue] : [key.rawValue]
    }

    /// A step.
    public init(event: SubjectDossierEvent, changedState: Bool, state: SubjectDossierState?) {
        self.event = event
        self.changedState = changedState
        self.state = state
    }

    /// The event's member `member`.
    public subscript<Value>(dynamicMember member: KeyPath<SubjectDossierEvent, Value>) -> Value {
        event[keyPath: member]
    }

    /// Reads the flat row: the event's members and the step's own from one object.
    public init(from decoder: any Decoder) throws {
        event = try SubjectDossierEvent(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changedState = try container.decode(Bool.self, forKey: .changedState)
        _state = try container.decode(Nullable<SubjectDossierState>.self, forKey: .state)
    }

    /// Writes the flat row: the event's members and the step's own into one object.
    public func encode(to encoder: any Encoder) throws {
        try event.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(changedState, forKey: .changedState)
        try container.encode(_state, forKey: .state)
    }
}

/// One event of the log as a dossier shows it: a step's event (``SubjectDossierStep``), or an event
/// the findings cite that is not one of the subject's own (a significant change is declared for an
/// app, not a subject), so that the dossier holds every event it cites.
public struct SubjectDossierEvent: Codable, Sendable, Equatable {
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

    /// The members, in order (``SubjectDossierStep/columns`` puts the step's own before the proof).
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case position, eventId, type, stream, occurredAt, recordedAt, actor, app, sentence, inclusionProof
    }

    /// An event.
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
