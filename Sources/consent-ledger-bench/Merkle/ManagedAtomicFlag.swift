import Foundation

/// A flag one task sets and another polls.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    /// Whether it was set.
    var isSet: Bool { lock.withLock { value } }
    /// Sets it.
    func set() { lock.withLock { value = true } }
}
