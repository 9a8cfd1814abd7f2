import LedgerCore

/// The significant changes declared in a log, each as first declared: which change a
/// `PermissionQuestionSent` that names none asks about.
///
/// The rule (docs/rules.md, decision 0021): a question's change is its `changeId`; else the change
/// declared for the same app before the question (by position) whose exact description the
/// question's significant-update topic carries, the latest such change when several match. Each
/// change counts as first declared (a later declaration of the same `changeId` changes nothing).
public struct ChangeDirectory: Sendable {
    private struct Declared: Sendable {
        var position: Int64
        var changeId: String
    }
    private var byAppAndText: [String: [Declared]] = [:]
    private var seen: Set<String> = []

    /// An empty directory.
    public init() {}

    /// A directory of the declarations among `events` (in position order).
    public init(_ events: some Sequence<LedgerEvent>) {
        for event in events { add(event) }
    }

    /// Adds `event` when it declares a change not declared before. Events must come in position order.
    public mutating func add(_ event: LedgerEvent) {
        guard case .significantChangeDeclared(let declared) = event.body, let app = event.envelope.app?.bundleId,
              seen.insert(declared.changeId).inserted else { return }
        byAppAndText[Self.key(app, declared.description), default: []]
            .append(Declared(position: event.position, changeId: declared.changeId))
    }

    /// The change `event` asks about when it is a question: its `changeId`, or the latest change
    /// declared before it for its app with its topic's exact description; nil otherwise.
    public func changeAskedAbout(by event: LedgerEvent) -> String? {
        guard case .permissionQuestionSent(let question) = event.body else { return nil }
        if let id = question.changeId { return id }
        guard case .significantAppUpdate(let description) = question.topic, let app = event.envelope.app?.bundleId,
              let candidates = byAppAndText[Self.key(app, description)] else { return nil }
        return candidates.last { $0.position < event.position }?.changeId
    }

    private static func key(_ app: String, _ description: String) -> String { app + "\u{0}" + description }
}
