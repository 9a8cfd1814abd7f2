import Foundation

/// PostgreSQL's own cost of one append call, without the server: pgbench with one client calls
/// `ledger.append_events` (the catalogue checked in SQL) and `ledger.append_checked_events` (the
/// ledger's own writer, decision 0072) in a loop with one event and with twenty (fresh event ids;
/// the AgeRangeShared the HTTP phases post, with the derived facts the Swift client adds), beside
/// pgbench's single-row insert on the same cluster. Issue 40's first figure: one event through the
/// writer's call within 3× the insert.
struct AppendCallTiming {
    let baseline: PgbenchBaseline
    let folder: String

    /// One script's mean time per call.
    struct Timing {
        let label: String
        let millisecondsPerCall: Double
    }

    /// The event the scripts append, as `format` text: `false` (pgbench would take a colon before
    /// a name for one of its variables), its id, subject and subject.
    static let event = #"{"actor":{"kind":"app"},"app":{"appVersion":"2.3.1","bundleId":"com.example.kids","osVersion":"26.1","platform":"iOS"},"#
        + #""derived":{"legalCategory":"13to15","verifiedAdult":%s},"#
        + #""eventId":"%s","jurisdiction":{"basis":"asserted","code":"US-TX"},"occurredAt":"2026-11-22T10:15:00Z","#
        + #""payload":{"lowerBound":13,"upperBound":15},"schemaVersion":1,"stream":"subject-%s","subject":"%s","type":"AgeRangeShared"}"#

    /// A pgbench script: one `append_events` call of `events` fresh events, on log `calls`.
    static func script(events: Int) -> String {
        "SELECT count(*) FROM ledger.append_events('calls', ARRAY(SELECT format('\(event)', 'false', gen_random_uuid(), g.s, g.s) "
            + "FROM (SELECT 'p_' || (random() * 500)::int AS s FROM generate_series(1, \(events))) AS g));\n"
    }

    /// A pgbench script: one `append_checked_events` call of `events` fresh events with their
    /// columns, on log `checked-calls`, as serve's writer makes it.
    static func checkedScript(events: Int) -> String {
        let n = "ARRAY[\(events)]"
        return "SELECT count(*) FROM (SELECT array_agg(format('\(event)', 'false', g.id, g.s, g.s) ORDER BY g.n) AS events, "
            + "array_agg(g.id ORDER BY g.n) AS ids, array_agg('subject-' || g.s ORDER BY g.n) AS streams, array_agg(g.s ORDER BY g.n) AS subjects "
            + "FROM (SELECT n, gen_random_uuid() AS id, 'p_' || (random() * 500)::int AS s FROM generate_series(1, \(events)) AS n) AS g) AS b, "
            + "LATERAL ledger.append_checked_events('checked-calls', b.events, b.ids, b.streams, array_fill('AgeRangeShared'::text, \(n)), "
            + "array_fill(1, \(n)), array_fill('2026-11-22T10:15:00Z'::timestamptz, \(n)), b.subjects, array_fill('app'::text, \(n)), "
            + "array_fill(NULL::text, \(n)), array_fill(NULL::text, \(n)), array_fill(NULL::text, \(n)), array_fill('any'::text, \(n)), "
            + "NULL, NULL, NULL) AS c;\n"
    }

    /// Runs each script for `seconds` (the insert first) and returns the time per call.
    func run(seconds: Int) throws -> [Timing] {
        var scripts = [("insert of one row (the pgbench baseline's script)", baseline.scriptPath)]
        for events in [1, 20] {
            let plural = events == 1 ? "" : "s"
            let path = folder + "/append-\(events).sql"
            try Self.script(events: events).write(toFile: path, atomically: true, encoding: .utf8)
            scripts.append(("append_events, \(events) event\(plural)", path))
            let checkedPath = folder + "/append-checked-\(events).sql"
            try Self.checkedScript(events: events).write(toFile: checkedPath, atomically: true, encoding: .utf8)
            scripts.append(("append_checked_events, \(events) event\(plural)", checkedPath))
        }
        return try scripts.map { label, path in
            let perSecond = try baseline.run(clients: 1, seconds: seconds, script: path)
            Progress.note("per call: \(label): \(IngestReport.ms(1 / perSecond)) ms")
            return Timing(label: label, millisecondsPerCall: 1000 / perSecond)
        }
    }
}
