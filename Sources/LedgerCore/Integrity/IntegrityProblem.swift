/// The first thing `verify` found wrong in a log: where, and what.
public struct IntegrityProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The position of the first bad event (or of the head, for a head mismatch).
    public var position: Int64
    /// What kind of problem.
    public var kind: Kind
    /// The particulars: expected and found values.
    public var detail: String

    /// Kinds of integrity problem.
    public enum Kind: String, Sendable {
        /// A position is missing or repeated.
        case gap
        /// `leaf_hash` is not SHA-256(0x00 || record): the record or the leaf hash was changed.
        case leafHash = "leaf-hash"
        /// `chain_hash` is not SHA-256(previous chain || leaf): the chain was broken.
        case chainHash = "chain-hash"
        /// The record is not the JSON object the ledger writes.
        case record
        /// A column disagrees with the record it was copied from.
        case column
        /// The log's head row disagrees with its newest event.
        case head
    }

    /// Creates a problem.
    public init(position: Int64, kind: Kind, detail: String) {
        self.position = position
        self.kind = kind
        self.detail = detail
    }

    /// `position 42: leaf-hash: …`
    public var description: String { "position \(position): \(kind.rawValue): \(detail)" }
}
