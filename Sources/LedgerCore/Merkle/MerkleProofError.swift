/// Why a Merkle proof was rejected, or why one cannot be produced.
///
/// Thrown by ``MerkleProofVerifier`` when a proof does not verify, and by the
/// generators in ``MerkleTree`` when asked for a proof that does not exist
/// (such as an index outside the tree).
public struct MerkleProofError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A human-readable explanation, for logs and error messages.
    public let reason: String

    /// Creates an error with the given explanation.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The explanation, prefixed so that it reads well in a log line.
    public var description: String {
        "Merkle proof error: \(reason)"
    }
}
