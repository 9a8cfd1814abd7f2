import Foundation

/// Who is reading: through which door, as whom, from where.
public struct ReadAccess: Sendable, Equatable {
    /// The door a read came through.
    public enum Channel: String, Sendable, CaseIterable {
        /// The auditor's console (`/console`).
        case console
        /// The HTTP API (`/v1`).
        case api
        /// The command line, on the database directly.
        case cli
    }

    /// The door.
    public var channel: Channel
    /// The API key id; for the CLI, `<database role>/<OS user>`.
    public var reader: String
    /// The peer address, or the CLI's host.
    public var client: String

    /// The subject of a read of every subject's data at once (the state of all, an export of the
    /// log, a tile of entries, the whole register).
    public static let everySubject = "*"

    /// An access from its parts.
    public init(channel: Channel, reader: String, client: String) {
        self.channel = channel
        self.reader = reader
        self.client = client
    }
}

/// One recorded read of a subject's data (`ledger.read_audit`).
public struct ReadRecord: Sendable, Equatable {
    /// Its place in the log's record of reads, from 1.
    public var seq: Int64
    /// When (UTC, RFC 3339 with microseconds).
    public var readAt: String
    /// Who, through which door, from where.
    public var access: ReadAccess
    /// What was read: `state`, `replay`, `explain`, `dossier`, `consent-register`.
    public var what: String
    /// Whose data.
    public var subject: String
    /// As of what, in which format.
    public var detail: String
    /// The chain hash after it (hex).
    public var chainHash: String

    /// A value from its parts (the storage module reads it from rows).
    package init(seq: Int64, readAt: String, access: ReadAccess, what: String, subject: String, detail: String, chainHash: String) {
        self.seq = seq
        self.readAt = readAt
        self.access = access
        self.what = what
        self.subject = subject
        self.detail = detail
        self.chainHash = chainHash
    }
}
