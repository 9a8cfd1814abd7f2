import Foundation

/// A log's head: its newest position and chain hash.
public struct LogHead: Sendable, Equatable {
    /// The log id.
    public var log: String
    /// The newest position (0 for an empty log).
    public var position: Int64
    /// The chain hash at that position (32 zero bytes for an empty log).
    public var chainHash: [UInt8]
    /// When the log was created.
    public var createdAt: Date

    /// A head from its parts.
    public init(log: String, position: Int64, chainHash: [UInt8], createdAt: Date) {
        self.log = log
        self.position = position
        self.chainHash = chainHash
        self.createdAt = createdAt
    }
}
