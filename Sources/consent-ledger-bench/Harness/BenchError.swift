/// A benchmark that cannot go on (a setup step failed, or a path stored the wrong rows).
struct BenchError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    /// Creates an error with its message.
    init(_ description: String) { self.description = description }
}
