import LedgerCore

/// The events a benchmark appends: realistic consent-ledger envelopes (age ranges shared and
/// requested, parental answers, access gates), spread over many `subject-p_…` streams, with fresh
/// lowercase UUIDs. The same seed gives the same events.
struct Workload: Sendable {
    /// The events, checked and canonicalized as the `append` command would.
    let events: [EventInput]
    /// Each event's `occurredAt`, in seconds since 1970 (for the plain tables' timestamp column).
    let occurredAt: [Int64]

    /// The mean size of the canonical events, in bytes.
    var meanEventBytes: Int {
        events.isEmpty ? 0 : events.reduce(0) { $0 + $1.canonicalBytes.count } / events.count
    }

    /// Generates `count` events over `streams` streams.
    static func generate(count: Int, streams: Int, seed: UInt64) throws(LedgerError) -> Workload {
        var random = SeededGenerator(seed: seed)
        var events: [EventInput] = []
        var times: [Int64] = []
        events.reserveCapacity(count)
        times.reserveCapacity(count)
        var clock: Int64 = 1_795_132_800  // 2026-11-20T00:00:00Z
        for _ in 0..<count {
            clock += Int64(random.next() % 13)
            let subject = pseudonym("p_", Int(random.next() % UInt64(streams)))
            let line = EventShapes.line(subject: subject, occurredAt: UTCTime.seconds(clock), random: &random)
            events.append(try EventInput(line: Array(line.utf8)))
            times.append(clock)
        }
        return Workload(events: events, occurredAt: times)
    }

    /// A stable pseudonym for number `n`: `prefix` and 6 hex digits, like `p_7f3a9c` (distinct
    /// for distinct n below 2^24).
    static func pseudonym(_ prefix: String, _ n: Int) -> String {
        let mixed = (UInt32(truncatingIfNeeded: n) &* 0x9E37_79B1) & 0xFF_FFFF
        let hex = String(mixed, radix: 16)
        return prefix + String(repeating: "0", count: 6 - hex.count) + hex
    }
}
