/// The group commit's queue, without the database: what waits for each log, how many of its
/// transactions are under way, and when a batch is cut (decision 0041).
///
/// A log's waiting items are cut into a batch when fewer than `maxInFlight` of its batches are
/// under way: the oldest, at most `maxBatch` of them, in the order they came. Items that come
/// while batches are under way wait for the next cut, which ``finish(log:)`` allows. Logs do not
/// wait for one another.
struct CommitQueue<Item> {
    /// The most items in one batch.
    let maxBatch: Int
    /// The most batches of one log under way at once.
    let maxInFlight: Int
    private var pending: [String: [Item]] = [:]
    private var inFlight: [String: Int] = [:]

    init(maxBatch: Int, maxInFlight: Int) {
        precondition(maxBatch > 0 && maxInFlight > 0, "a group commit needs room for one event and one transaction")
        self.maxBatch = maxBatch
        self.maxInFlight = maxInFlight
    }

    /// Queues `item` for `log`.
    mutating func add(_ item: Item, log: String) {
        pending[log, default: []].append(item)
    }

    /// The next batch of `log`, counted as under way, when one may start: nil when nothing waits
    /// or `maxInFlight` batches of the log are under way.
    mutating func cut(log: String) -> [Item]? {
        guard inFlight[log, default: 0] < maxInFlight, let queued = pending[log], !queued.isEmpty else { return nil }
        let batch = Array(queued.prefix(maxBatch))
        pending[log] = queued.count > batch.count ? Array(queued.dropFirst(batch.count)) : nil
        inFlight[log, default: 0] += 1
        return batch
    }

    /// A batch of `log` is done (every item answered): another may be cut.
    mutating func finish(log: String) {
        let running = inFlight[log, default: 1] - 1
        inFlight[log] = running > 0 ? running : nil
    }

    /// How many items of `log` wait for a batch.
    func waiting(log: String) -> Int { pending[log]?.count ?? 0 }

    /// How many batches of `log` are under way.
    func underWay(log: String) -> Int { inFlight[log] ?? 0 }
}
