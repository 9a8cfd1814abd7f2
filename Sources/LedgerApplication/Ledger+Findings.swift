import LedgerCore
import LedgerPostgres

extension Ledger {
    /// At most `limit` findings of `log` after `cursor` (of `kind` only, when given), in log order,
    /// with the position the anomalies projection has judged the log up to (``FindingsFeed``), as
    /// the auditor.
    public func findings(log: String, after cursor: FindingsFeed.Cursor, kind: LedgerRule.Kind?,
                         limit: Int = FindingsFeed.maxLimit) async throws -> FindingsFeed.Page {
        try await FindingsFeed.read(log: log, after: cursor, kind: kind, limit: limit, pool: pools.auditor, logger: logger)
    }

    /// Hands `deliver` every finding of `log` after `cursor` (of `kind` only, when given), in log
    /// order, then each new one as the anomalies projection finds it, until the task is cancelled
    /// or `deliver` throws. Each read's findings go to `deliver` together, none of them too: a
    /// caller that must notice a reader gone or a server stopping while nothing is found hears
    /// from it at least every `backstop`. Between reads it waits on ``folds``, and reads again after
    /// `backstop` in any case (a fold whose notification was missed is late by that much at most).
    /// No connection is held while it waits or while `deliver` runs.
    public func followFindings(log: String, after cursor: FindingsFeed.Cursor, kind: LedgerRule.Kind?,
                               backstop: Duration = .seconds(2),
                               _ deliver: ([FindingsFeed.Item]) async throws -> Void) async throws {
        var cursor = cursor
        while true {
            try Task.checkCancellation()
            let seen = folds.count(of: log)
            let page = try await findings(log: log, after: cursor, kind: kind)
            try await deliver(page.items)
            if let last = page.items.last { cursor = last.cursor }
            if page.items.count == FindingsFeed.maxLimit { continue }
            await folds.wait(log: log, after: seen, atMost: backstop)
        }
    }

    /// Listens for folds until the task is cancelled, moving the count of ``folds`` for the log of
    /// each fold of the anomalies projection, and every log's whenever the listener connects again
    /// (it cannot tell what it missed). The server runs it beside the projections; `watch` runs it
    /// beside its reads.
    public func followFolds() async {
        guard let settings = pools.auditor.settings else { return }
        let folds = self.folds
        await ChannelListener.folds(settings: settings, logger: logger).run(
            listening: { folds.foldEveryLog() },
            heard: { payload in if let log = Self.anomaliesFold(payload) { folds.fold(log: log) } },
            lost: {})
    }

    /// The log of a fold notification's payload `<projection>/<log>` when the projection is the
    /// anomalies projection, whose findings the feed reads; nil for any other.
    static func anomaliesFold(_ payload: String) -> String? {
        let prefix = "anomalies/"
        guard payload.hasPrefix(prefix), payload.count > prefix.count else { return nil }
        return String(payload.dropFirst(prefix.count))
    }
}
