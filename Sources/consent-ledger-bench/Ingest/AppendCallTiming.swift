import Foundation

/// PostgreSQL's own cost of one `ledger.append_events` call, without the server: pgbench with one
/// client calls it in a loop with one event and with twenty (fresh event ids; the AgeRangeShared
/// the HTTP phases post, on log `calls`), beside pgbench's single-row insert on the same cluster.
/// Issue 18's item 1: a grouped batch of twenty should cost PostgreSQL little more than an insert
/// of twenty rows.
struct AppendCallTiming {
    let baseline: PgbenchBaseline
    let folder: String

    /// One script's mean time per call.
    struct Timing {
        let label: String
        let millisecondsPerCall: Double
    }

    /// A pgbench script: one `append_events` call of `events` fresh events.
    static func script(events: Int) -> String {
        let event = #"{"actor":{"kind":"app"},"app":{"appVersion":"2.3.1","bundleId":"com.example.kids","osVersion":"26.1","platform":"iOS"},"#
            + #""eventId":"%s","jurisdiction":{"basis":"asserted","code":"US-TX"},"occurredAt":"2026-11-22T10:15:00Z","#
            + #""payload":{"lowerBound":13,"upperBound":15},"schemaVersion":1,"stream":"subject-%s","subject":"%s","type":"AgeRangeShared"}"#
        return "SELECT count(*) FROM ledger.append_events('calls', ARRAY(SELECT format('\(event)', gen_random_uuid(), g.s, g.s) "
            + "FROM (SELECT 'p_' || (random() * 500)::int AS s FROM generate_series(1, \(events))) AS g));\n"
    }

    /// Runs each script for `seconds` (the insert first) and returns the time per call.
    func run(seconds: Int) throws -> [Timing] {
        var scripts = [("insert of one row (the pgbench baseline's script)", baseline.scriptPath)]
        for events in [1, 20] {
            let path = folder + "/append-\(events).sql"
            try Self.script(events: events).write(toFile: path, atomically: true, encoding: .utf8)
            scripts.append(("append_events, \(events) event\(events == 1 ? "" : "s")", path))
        }
        return try scripts.map { label, path in
            let perSecond = try baseline.run(clients: 1, seconds: seconds, script: path)
            Progress.note("per call: \(label): \(IngestReport.ms(1 / perSecond)) ms")
            return Timing(label: label, millisecondsPerCall: 1000 / perSecond)
        }
    }
}
