import Hummingbird

/// The bound on each log's reports under way (issue 36, finding 13): a report (the consent
/// register, the regulator report, a dossier) reads and renders a whole period (0.95 s for a
/// register of 60,000 events, debug build), so four at once from one key, or one each from ten keys of
/// the same log, filled both cores of the machine and slowed every other tenant's reads 24 to 73
/// times. At most ``maxPerLog`` reports of one log are computed at once, whichever keys (or console
/// sessions) ask; one more is refused at once with 429 `too-many-requests` and `Retry-After`,
/// before any database work. Other logs' reports are not affected. Shared by the API and the
/// console.
public final class ReportAdmission: Sendable {
    /// The most reports of one log computed at once.
    public let maxPerLog: Int
    private let underWay: BoundedCounts

    /// A bound of `maxPerLog` reports under way per log.
    public init(maxPerLog: Int) {
        self.maxPerLog = max(1, maxPerLog)
        underWay = BoundedCounts(limit: self.maxPerLog)
    }

    /// Runs `body` (computing and rendering one report of `log`) holding one of the log's report
    /// slots, or throws 429 when the log holds them all.
    func run<Result: Sendable>(log: String, _ body: () async throws -> Result) async throws -> Result {
        if let held = underWay.take(log) {
            var problem = Problem(.tooManyRequests, code: "too-many-requests",
                                  detail: "log \(log) has \(held) report\(held == 1 ? "" : "s") being computed (at most \(maxPerLog) per log)",
                                  hint: "Retry after \(Self.retryAfterSeconds) s (Retry-After): reports of one log are computed one at a time, "
                                      + "so that no tenant's reports slow the others.")
            problem.headers[.retryAfter] = String(Self.retryAfterSeconds)
            throw problem
        }
        defer { underWay.give(log) }
        return try await body()
    }

    /// Seconds a refused report is told to wait: about what one report of a busy log takes.
    static let retryAfterSeconds = 2
}
