import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Keeps the projections current as events arrive: a catch-up pass whenever an append commits
/// (PostgreSQL's NOTIFY on `consent_ledger_appended`, sent by the events table's trigger for
/// every inserter) and every `pollInterval` in any case, so a lost notification or a dropped
/// listening connection only delays the projections, and a pass that fails for a passing reason
/// is tried again; one that would fail again (no schema, say) ends the follower with its error.
/// An event a fold cannot take stalls only its log (``ProjectionStall``): every pass retries it,
/// and `note` hears of a stall once, when it appears (or its error changes), and once when it
/// clears, not at every pass.
public struct ProjectionFollower: Sendable {
    /// The channel the ledger notifies on (sql/functions/check-appended-events.sql).
    public static let channel = "consent_ledger_appended"

    /// The runner that does each pass.
    public var runner: ProjectionRunner
    /// The longest wait between passes.
    public var pollInterval: Duration

    /// Creates a follower.
    public init(runner: ProjectionRunner, pollInterval: Duration = .seconds(5)) {
        self.runner = runner
        self.pollInterval = pollInterval
    }

    /// Runs passes until cancelled, or until `shouldStop` returns true after a pass.
    ///
    /// - Parameter stopOnLastingFailure: end with the error of a pass that would fail again (the
    ///   CLI's `project run --follow`); false keeps retrying at every wake and reports each failure
    ///   through `note` (the server, whose appends must go on whatever the projections meet).
    public func follow(note: @escaping @Sendable (String) -> Void = { _ in },
                       stopOnLastingFailure: Bool = true,
                       shouldStop: @escaping @Sendable () async throws -> Bool = { false }) async throws {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let runner = self.runner
        let pollInterval = self.pollInterval
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Listening: reconnects after a dropped connection; the polling covers the gap.
                while !Task.isCancelled {
                    do {
                        try await runner.pool.withConnection { connection in
                            try await connection.listen(on: Self.channel) { notifications in
                                wake.yield()  // Catch up with what arrived before LISTEN took effect.
                                for try await _ in notifications { wake.yield() }
                            }
                        }
                    } catch is CancellationError {
                        return
                    } catch {
                        if Task.isCancelled { return }
                        note("listening for appends failed (\(DatabaseErrors.translateAny(error))); polling every \(pollInterval) meanwhile")
                        try await Task.sleep(for: pollInterval)
                    }
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: pollInterval)
                    wake.yield()
                }
            }
            // The first pass runs at once. A pass that fails for a passing reason (the server
            // restarting, a lost connection) is retried at the next wake, and the checkpoints make
            // sure nothing is folded twice or skipped; any other failure (no schema, no rights, an
            // event a fold cannot take) would fail the same way again, so it ends the follower with
            // its error instead of repeating it forever.
            wake.yield()
            var announced = Set<String>()
            do {
                for await _ in wakes {
                    do {
                        let stalls = try await runner.runOnce(note: note)
                        for line in Self.changes(from: announced, to: stalls) { note(line) }
                        announced = Set(stalls.map(Self.key))
                    } catch is CancellationError {
                        break
                    } catch where !stopOnLastingFailure || DatabaseErrors.isTransient(error) {
                        note("a catch-up pass failed: \(DatabaseErrors.translateAny(error)); trying again at the next wake (at most \(pollInterval))")
                        continue
                    }
                    if try await shouldStop() { break }
                }
            } catch {
                group.cancelAll()
                throw DatabaseErrors.translateAny(error)
            }
            group.cancelAll()
        }
    }

    /// What a pass ending with `stalls` tells, given the stalls told already (by ``key(_:)``): one
    /// line per new stall, one per stall cleared.
    static func changes(from announced: Set<String>, to stalls: [ProjectionStall]) -> [String] {
        let now = Set(stalls.map(key))
        var lines = stalls.filter { !announced.contains(key($0)) }
            .map { "\($0.line); the other logs go on, and every pass tries it again" }
        for cleared in announced.subtracting(now).sorted() {
            lines.append("\(cleared): no longer stalled there")
        }
        return lines
    }

    /// A stall's identity for telling it once: projection, log, position and error.
    static func key(_ stall: ProjectionStall) -> String {
        "\(stall.projection): log \(stall.log) at position \(stall.position) (\(stall.error))"
    }
}
