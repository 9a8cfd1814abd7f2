import PostgresNIO

/// The rows of a query, all read while its connection was leased (see ``LedgerPool/query(_:logger:)``).
///
/// An `AsyncSequence` of `PostgresRow`, so PostgresNIO's `decode(_:)` works on it as on a live
/// row sequence: `for try await (id, n) in try await pool.query(q).decode((String, Int64).self)`.
public struct FetchedRows: AsyncSequence, Sendable {
    /// Each row, in the order the server sent them.
    public typealias Element = PostgresRow
    /// The rows.
    public let rows: [PostgresRow]

    /// Rows already read.
    public init(_ rows: [PostgresRow]) { self.rows = rows }

    /// An iterator over the rows.
    public func makeAsyncIterator() -> Iterator { Iterator(base: rows.makeIterator()) }

    /// Iterates the rows.
    public struct Iterator: AsyncIteratorProtocol {
        var base: IndexingIterator<[PostgresRow]>
        /// The next row, or nil after the last.
        public mutating func next() async throws -> PostgresRow? { base.next() }
    }
}
