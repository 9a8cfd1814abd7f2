@testable import LedgerPostgres
import Testing

/// The group commit's queue without a database: when a batch is cut, and what goes in it.
@Suite("Group commit queue")
struct CommitQueueTests {
    enum Step: CustomStringConvertible {
        /// Requests numbered from `first` through `last` come for a log.
        case add(String, ClosedRange<Int>)
        /// A batch of the log is cut: the requests it should hold (nil: none may be cut).
        case cut(String, [Int]?)
        /// A batch of the log is done.
        case finish(String)

        var description: String {
            switch self {
            case .add(let log, let range): "add \(log) \(range)"
            case .cut(let log, let batch): "cut \(log) \(batch.map { "\($0)" } ?? "nothing")"
            case .finish(let log): "finish \(log)"
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let maxBatch: Int
        let maxInFlight: Int
        let steps: [Step]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an empty queue cuts nothing", maxBatch: 3, maxInFlight: 1, steps: [.cut("a", nil)]),
        Case(name: "a lone request is cut alone", maxBatch: 3, maxInFlight: 1, steps: [.add("a", 1...1), .cut("a", [1]), .cut("a", nil)]),
        Case(name: "requests that came while a batch is under way wait, then go together in the order they came",
             maxBatch: 10, maxInFlight: 1,
             steps: [.add("a", 1...1), .cut("a", [1]), .add("a", 2...4), .cut("a", nil), .finish("a"), .cut("a", [2, 3, 4]), .cut("a", nil)]),
        Case(name: "a batch holds at most maxBatch, the oldest first",
             maxBatch: 2, maxInFlight: 1,
             steps: [.add("a", 1...5), .cut("a", [1, 2]), .finish("a"), .cut("a", [3, 4]), .finish("a"), .cut("a", [5]), .finish("a"), .cut("a", nil)]),
        Case(name: "two in flight: a second batch is cut while the first is under way, not a third",
             maxBatch: 2, maxInFlight: 2,
             steps: [.add("a", 1...5), .cut("a", [1, 2]), .cut("a", [3, 4]), .cut("a", nil), .finish("a"), .cut("a", [5])]),
        Case(name: "logs do not wait for one another",
             maxBatch: 5, maxInFlight: 1,
             steps: [.add("a", 1...2), .add("b", 3...3), .cut("a", [1, 2]), .add("a", 4...4), .cut("a", nil), .cut("b", [3]),
                     .finish("a"), .cut("a", [4])]),
    ]

    @Test("batches are cut as the table says", arguments: cases)
    func cuts(_ test: Case) {
        var queue = CommitQueue<Int>(maxBatch: test.maxBatch, maxInFlight: test.maxInFlight)
        for step in test.steps {
            switch step {
            case .add(let log, let range):
                for item in range { queue.add(item, log: log) }
            case .cut(let log, let expected):
                #expect(queue.cut(log: log) == expected, "\(step)")
            case .finish(let log):
                queue.finish(log: log)
            }
        }
    }

    @Test("what is waiting and under way is counted per log")
    func counts() {
        var queue = CommitQueue<Int>(maxBatch: 2, maxInFlight: 1)
        for item in 1...3 { queue.add(item, log: "a") }
        #expect(queue.waiting(log: "a") == 3 && queue.underWay(log: "a") == 0)
        _ = queue.cut(log: "a")
        #expect(queue.waiting(log: "a") == 1 && queue.underWay(log: "a") == 1)
        queue.finish(log: "a")
        #expect(queue.underWay(log: "a") == 0 && queue.waiting(log: "b") == 0)
    }
}
