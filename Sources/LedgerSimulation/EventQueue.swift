import LedgerCore
/// An event the simulator has decided on, waiting for its time to come.
struct ScheduledLine {
    /// When it happens.
    let time: Int64
    /// The order it was scheduled in, which breaks ties between events of the same second (so
    /// a cause scheduled first comes first).
    let sequence: UInt64
    /// The NDJSON line.
    let line: String

    /// Earlier time first, then earlier scheduling.
    func precedes(_ other: ScheduledLine) -> Bool {
        time != other.time ? time < other.time : sequence < other.sequence
    }
}

/// A family's pending events, earliest first (a binary min-heap). Flows are decided whole when
/// they start (a question, its answer days later, the gate it opens), so the events a family will
/// report later wait here until the day they happen.
struct EventQueue {
    private var heap: [ScheduledLine] = []

    /// Whether nothing is waiting.
    var isEmpty: Bool { heap.isEmpty }

    /// Adds an event.
    mutating func push(_ item: ScheduledLine) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event when it happens before `limit`.
    mutating func pop(before limit: Int64) -> ScheduledLine? {
        guard let first = heap.first, first.time < limit else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
