import LedgerCore
import LedgerPostgres

/// How `project run` and `project rebuild` end when a log stalled: each stall on standard output,
/// then an error (exit status non-zero) saying what to do.
enum ProjectStalls {
    /// Prints `stalls` and throws `projection-stalled`; does nothing when there are none.
    static func report(_ stalls: [ProjectionStall]) throws {
        guard !stalls.isEmpty else { return }
        for stall in stalls { try Console.out("STALLED \(stall.line)") }
        let logs = Set(stalls.map(\.log)).count
        throw LedgerError(.projectionStalled,
                          "\(logs == 1 ? "1 log" : "\(logs) logs") stalled at an event a projection cannot fold; every other log is at its head",
                          hint: ProjectionStall.hint)
    }
}
