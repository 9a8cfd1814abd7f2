import Foundation

/// A log on which a projection stopped because one event could not be folded (decision 0033).
///
/// The event is not folded and the projection's checkpoint on that log stays just before it, so
/// nothing is skipped; every other log goes on. The stall is kept in the projection's
/// `checkpoints` row (projections/common/bookkeeping.sql); each run tries that event again, alone,
/// and clears the stall in the step that folds it (after a fixed fold, or a rebuild).
public struct ProjectionStall: Sendable, Equatable, Hashable {
    /// The projection.
    public var projection: String
    /// The log (tenant).
    public var log: String
    /// The position of the event the fold failed on; the checkpoint is `position - 1`.
    public var position: Int64
    /// That event's id.
    public var eventId: UUID
    /// PostgreSQL's error, with its SQLSTATE: `invalid input syntax for type integer: "x" (SQLSTATE 22P02)`.
    public var error: String
    /// When the fold first failed on it.
    public var since: Date

    /// `subject_state: log acme stalled at position 42 (event …): <error>`.
    public var line: String {
        "\(projection): log \(log) stalled at position \(position) (event \(eventId.uuidString.lowercased())): \(error)"
    }

    /// What to do about it, for the CLI and the docs.
    public static let hint = "The event is kept and not folded; the other logs go on. Every `consent-ledger project run` "
        + "(and the server's follower) tries it again: once a fold that takes it is installed, the next run, or "
        + "`consent-ledger project rebuild NAME`, resumes the log and clears the stall."

    /// A value from its parts (the storage module reads it from rows).
    package init(projection: String, log: String, position: Int64, eventId: UUID, error: String, since: Date) {
        self.projection = projection
        self.log = log
        self.position = position
        self.eventId = eventId
        self.error = error
        self.since = since
    }
}
