import LedgerCore
import LedgerPostgres

/// Subjects' states as of a moment: what ``Ledger/state(log:subject:asOf:)`` answers.
public struct SubjectStates: Sendable {
    /// The position the states are as of.
    public var position: Int64
    /// One snapshot per subject (canonical JSON text), by pseudonym.
    public var snapshots: [String]
    /// When there is none: why the moment holds nothing (the clock it was read on, the first
    /// event's time), for the caller to show.
    public var emptyMoment: String?

    /// States from their parts.
    public init(position: Int64, snapshots: [String], emptyMoment: String? = nil) {
        self.position = position
        self.snapshots = snapshots
        self.emptyMoment = emptyMoment
    }
}

extension Ledger {
    /// Finds subjects by pseudonym prefix, or by a denial, rescission or violation, from the live
    /// projections (saying how far they have folded).
    public func findSubjects(log: String, prefix: String = "", has: SubjectMark? = nil, limit: Int = 100,
                             after: String? = nil) async throws -> SubjectListing {
        try await SubjectDirectory(pool: pools.auditor, logger: logger).find(log: log, prefix: prefix, has: has, limit: limit, after: after)
    }

    /// The state of `subject` (every subject when nil) as of `asOf` (time travel).
    ///
    /// - Throws: `log-not-found`; `invalid-request` for a position beyond the head;
    ///   `subject-not-found` for a subject the log has never seen.
    public func state(log: String, subject: String? = nil, asOf: AsOf) async throws -> SubjectStates {
        if let subject { try SubjectPseudonym.check(subject) }
        let head = try await requireHead(log: log)
        if case .position(let position) = asOf, position > head.position {
            throw LedgerError(.invalidRequest, "log \(log) has no position \(position): its head is \(head.position)", field: "asOf",
                              hint: "Give a position from 0 to \(head.position), a time, or leave it out for the head.")
        }
        let (position, snapshots) = try await TimeTravel(pool: pools.auditor, logger: logger).snapshots(log: log, asOf: asOf, subject: subject)
        let emptyMoment = snapshots.isEmpty ? try await SubjectChecks(pool: pools.auditor, logger: logger).emptyMoment(log: log, subject: subject, asOf: asOf) : nil
        return SubjectStates(position: position, snapshots: snapshots, emptyMoment: emptyMoment)
    }

    /// `subject`'s history event by event with the state after each (for disputes).
    public func replay(log: String, subject: String, asOf: AsOf = .head) async throws -> SubjectReplay.History {
        try SubjectPseudonym.check(subject)
        return try await SubjectReplay(pool: pools.auditor, logger: logger).replay(log: log, subject: subject, asOf: asOf)
    }

    /// `subject`'s events up to `asOf`, without the states (``SubjectReplay/events(log:subject:asOf:)``).
    public func subjectEvents(log: String, subject: String, asOf: AsOf = .head) async throws -> (throughPosition: Int64, events: [ReplayedEvent]) {
        try SubjectPseudonym.check(subject)
        return try await SubjectReplay(pool: pools.auditor, logger: logger).events(log: log, subject: subject, asOf: asOf)
    }

    /// Why `feature` was open or closed for `subject` as of `asOf`, citing events and the rules that
    /// judged the decision (a rescission against `policy`'s window).
    public func explain(log: String, subject: String, feature: String, asOf: AsOf, policy: ReportPolicy = .defaults) async throws
        -> FeatureExplanation {
        try SubjectPseudonym.check(subject)
        return try await FeatureExplanation.explain(log: log, subject: subject, feature: feature, asOf: asOf, policy: policy,
                                             pool: pools.auditor, logger: logger)
    }
}
