import Foundation
import LedgerCore

extension AsOf {
    /// The filter for the events this moment takes, for `subject` (nil: all subjects).
    func filter(subject: String?) -> FoldInput.Filter {
        switch self {
        case .head, .position: return FoldInput.Filter(subject: subject)
        case .recordedAt(let d): return FoldInput.Filter(subject: subject, recordedBy: d)
        case .occurredAt(let d): return FoldInput.Filter(subject: subject, occurredBy: d)
        }
    }

    /// The last position this moment can include, given the log's head.
    func lastPosition(head: Int64) -> Int64 {
        if case .position(let p) = self { return min(p, head) }
        return head
    }
}
