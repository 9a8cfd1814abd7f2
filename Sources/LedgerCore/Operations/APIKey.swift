import Foundation

/// What an API key may do, on its one log.
public enum APIRole: String, Sendable, CaseIterable, Comparable {
    /// Append events, nothing else.
    case ingest
    /// Read events, state, replays and reports.
    case auditor
    /// Everything, including erasing a subject.
    case admin

    public static func < (lhs: APIRole, rhs: APIRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A stored API key, without its secret.
public struct APIKey: Sendable, Equatable {
    /// The public part of the key, which names it in lists and logs.
    public var keyID: String
    /// The log it is bound to.
    public var log: String
    /// What it may do there.
    public var role: APIRole
    /// A note for people (who holds it).
    public var label: String
    /// When it was created (UTC, RFC 3339).
    public var createdAt: String
    /// When it was revoked, if it was.
    public var revokedAt: String?

    /// A key from its parts.
    public init(keyID: String, log: String, role: APIRole, label: String = "", createdAt: String, revokedAt: String? = nil) {
        self.keyID = keyID
        self.log = log
        self.role = role
        self.label = label
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
