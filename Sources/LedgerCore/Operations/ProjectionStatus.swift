import Foundation

/// Where each projection stands: built or not, with the current definition or a stale one, and
/// per log its checkpoint, the log's head and the lag between them, and where a log stalled.
public struct ProjectionStatus: Sendable, Equatable {
    /// The projection.
    public var projection: String
    /// Whether its live tables exist and were built by this software's definition.
    public var state: State
    /// One entry per log (empty when the projection is not built).
    public var logs: [LogPosition]

    /// A projection's build state.
    public enum State: Sendable, Equatable {
        /// Built with the current definition.
        case current
        /// Built with another definition (hash given): `project run` rebuilds it.
        case stale(builtWith: String)
        /// Not built.
        case missing
    }

    /// A projection's position on one log.
    public struct LogPosition: Sendable, Equatable {
        /// The log.
        public var log: String
        /// The position folded up to.
        public var position: Int64
        /// The log's head.
        public var head: Int64
        /// When the checkpoint last moved, if ever.
        public var updatedAt: Date?
        /// Set when the projection stopped on this log at an event its fold could not take.
        public var stall: ProjectionStall?
        /// Events not folded yet.
        public var lag: Int64 { max(0, head - position) }

        /// A value from its parts (the storage module reads it from rows).
        package init(log: String, position: Int64, head: Int64, updatedAt: Date? = nil, stall: ProjectionStall? = nil) {
            self.log = log
            self.position = position
            self.head = head
            self.updatedAt = updatedAt
            self.stall = stall
        }
    }

    /// A value from its parts (the storage module reads it from rows).
    package init(projection: String, state: State, logs: [LogPosition]) {
        self.projection = projection
        self.state = state
        self.logs = logs
    }
}
