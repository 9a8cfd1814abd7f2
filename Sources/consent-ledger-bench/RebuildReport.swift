import Foundation

/// The rebuild benchmark's printed result: the run described, the scan baselines, one line per
/// projection rebuild (and the five together) with its rates and ratios to the scans, the target,
/// and where the time goes.
struct RebuildReport {
    /// The rebuild rate aimed at, in positions (log events) per second, per projection.
    static let target = 200_000.0

    /// The log and how it was loaded.
    var loaded: LogLoader.Loaded
    var loadBatchSize: Int
    var seed: UInt64
    /// Rebuild steps of this many positions.
    var chunkSize: Int64
    var rounds: Int
    var scanRounds: Int
    var server: ServerFacts
    /// In ``ScanBaselines/queries``' order.
    var baselines: [PathTiming]
    var rebuilds: RebuildRounds.Timings
    /// Empty when the breakdown was skipped.
    var breakdown: [FoldBreakdown.Profile]
    /// Where EXPLAIN ANALYZE of the last chunk was written, if it was.
    var plansFile: String?
    var commandLine: String
    /// When the run ended, UTC.
    var date: String

    /// The report, as lines for standard output.
    var lines: [String] { header + baselineLines + rebuildLines + breakdownLines + footer }

    private typealias T = ReportText

    private var header: [String] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return [
            "rebuild benchmark, \(date): a log of \(T.grouped(Double(loaded.events))) events (simulated: \(T.grouped(Double(loaded.families))) "
                + "families over \(loaded.days) days, seed \(seed); events ~\(loaded.meanEventBytes) bytes canonical), "
                + "ledger.events \(T.megabytes(server.eventsHeapBytes)) + indexes \(T.megabytes(server.eventsIndexBytes))",
            "PostgreSQL \(server.version), \(cores) core\(cores == 1 ? "" : "s"), durable cluster, shared_buffers \(server.sharedBuffers), "
                + "work_mem \(server.workMem), temp_buffers \(server.tempBuffers), max_wal_size \(server.maxWalSize)",
            "setup (not measured): loaded through ledger.append_events in batches of \(T.grouped(Double(loadBatchSize))) in "
                + "\(T.fixed(loaded.seconds, 1)) s (\(T.grouped(Double(loaded.events) / loaded.seconds)) events/s), then VACUUM (ANALYZE), CHECKPOINT",
            "",
        ]
    }

    private var baselineLines: [String] {
        var out = [
            "baselines: one backend, no parallel workers, sequential scan forced; \(scanRounds) timed run\(scanRounds == 1 ? "" : "s") each after one untimed",
            T.pad("query", 38) + T.lpad("best s", 9) + T.lpad("median s", 10) + T.lpad("rows/s (best)", 15) + T.lpad("MB/s (best)", 13),
        ]
        for timing in baselines {
            let best = timing.roundSeconds.min() ?? .nan
            out.append(T.pad(timing.name, 38) + T.lpad(T.fixed(best, 3), 9) + T.lpad(T.fixed(PathTiming.median(timing.roundSeconds), 3), 10)
                + T.lpad(T.grouped(timing.bestRate), 15) + T.lpad(T.grouped(Double(server.eventsHeapBytes) / 1e6 / best), 13))
        }
        return out + [""]
    }

    private var scanRate: Double { baselines[ScanBaselines.scanIndex].bestRate }
    private var parseRate: Double { baselines[ScanBaselines.parseIndex].bestRate }

    private var rebuildLines: [String] {
        var out = [
            "rebuilds: ProjectionRebuilder.rebuild (build schema, chunks of \(T.grouped(Double(chunkSize))) positions, swap), "
                + "\(rounds) round\(rounds == 1 ? "" : "s"); positions = the log's length",
            T.pad("projection", 24) + T.lpad("best s", 8) + T.lpad("median s", 10) + T.lpad("positions/s", 13)
                + T.lpad("events read", 13) + T.lpad("events read/s", 15) + T.lpad("÷ scan", 9) + T.lpad("÷ scan+parse", 14),
        ]
        let rows = zip(rebuilds.projections, rebuilds.eventsRead).map { ($0, $1) }
            + [(rebuilds.allFive, rebuilds.eventsRead.reduce(0, +))]
        for (timing, eventsRead) in rows {
            let best = timing.roundSeconds.min() ?? .nan
            out.append(T.pad(timing.name, 24) + T.lpad(T.fixed(best, 2), 8) + T.lpad(T.fixed(PathTiming.median(timing.roundSeconds), 2), 10)
                + T.lpad(T.grouped(timing.bestRate), 13) + T.lpad(T.grouped(Double(eventsRead)), 13)
                + T.lpad(T.grouped(Double(eventsRead) / best), 15) + T.lpad(T.fixed(timing.bestRate / scanRate, 3), 9)
                + T.lpad(T.fixed(timing.bestRate / parseRate, 3), 14))
        }
        let met = rebuilds.projections.filter { $0.bestRate >= Self.target }
        let slowest = rebuilds.projections.min { $0.bestRate < $1.bestRate }
        out += [
            "",
            "target >= \(T.grouped(Self.target)) positions/s per projection: met by \(met.count) of \(rebuilds.projections.count)"
                + (slowest.map { "; slowest \($0.name) at \(T.grouped($0.bestRate))/s (\(T.fixed($0.bestRate / Self.target, 2)) of the target)" } ?? "")
                + "; all five in sequence \(T.grouped(rebuilds.allFive.bestRate)) positions/s",
            "÷ scan = positions/s ÷ rows/s of \"\(baselines[ScanBaselines.scanIndex].name)\"; "
                + "÷ scan+parse = ÷ rows/s of \"\(baselines[ScanBaselines.parseIndex].name)\"",
            "",
        ]
        return out
    }

    private var breakdownLines: [String] {
        guard !breakdown.isEmpty else { return ["where the time goes: not measured (--no-breakdown)", ""] }
        var out = [
            "where the time goes: the same chunks and SQL run part by part by the bench into a scratch schema (seconds, whole log)",
            T.pad("projection", 22) + T.lpad("events", 10) + T.lpad("fill", 8) + T.lpad("analyze", 9) + T.lpad("fold", 8)
                + T.lpad("other", 7) + T.lpad("total", 8) + T.lpad("rebuild", 9) + T.lpad("fill ev/s", 11) + T.lpad("fill share", 12),
        ]
        for (profile, timing) in zip(breakdown, rebuilds.projections) {
            out.append(T.pad(profile.projection, 22) + T.lpad(T.grouped(Double(profile.events)), 10) + T.lpad(T.fixed(profile.fill, 2), 8)
                + T.lpad(T.fixed(profile.analyze, 2), 9) + T.lpad(T.fixed(profile.fold, 2), 8) + T.lpad(T.fixed(profile.other, 2), 7)
                + T.lpad(T.fixed(profile.total, 2), 8) + T.lpad(T.fixed(timing.roundSeconds.min() ?? .nan, 2), 9)
                + T.lpad(T.grouped(Double(profile.events) / profile.fill), 11)
                + T.lpad(T.fixed(100 * profile.fill / profile.total, 0) + "%", 12))
        }
        let sum = { (part: (FoldBreakdown.Profile) -> Double) in breakdown.reduce(0) { $0 + part($1) } }
        let total = sum(\.total)
        out.append(T.pad("all five", 22) + T.lpad(T.grouped(Double(breakdown.reduce(0) { $0 + $1.events })), 10)
            + T.lpad(T.fixed(sum(\.fill), 2), 8) + T.lpad(T.fixed(sum(\.analyze), 2), 9) + T.lpad(T.fixed(sum(\.fold), 2), 8)
            + T.lpad(T.fixed(sum(\.other), 2), 7) + T.lpad(T.fixed(total, 2), 8)
            + T.lpad(T.fixed(rebuilds.allFive.roundSeconds.min() ?? .nan, 2), 9) + T.lpad("", 11)
            + T.lpad(T.fixed(100 * sum(\.fill) / total, 0) + "%", 12))
        out += ["", "fold statements (seconds over the whole log, share of the projection's total):"]
        for profile in breakdown {
            for statement in profile.statements {
                out.append("  " + T.pad(profile.projection, 20) + T.pad(statement.label, 76) + T.lpad(T.fixed(statement.seconds, 2), 7)
                    + T.lpad(T.fixed(100 * statement.seconds / profile.total, 1) + "%", 7))
            }
        }
        out.append("fill = INSERT INTO fold_input SELECT … FROM ledger.events (scan, JSON parse, upcast); analyze = count(*) and "
            + "ANALYZE fold_input; other = BEGIN, create/TRUNCATE fold_input, COMMIT; rebuild = the rebuild's own best time above")
        if let plansFile { out.append("EXPLAIN (ANALYZE, BUFFERS) of each projection's last chunk: \(plansFile)") }
        return out + [""]
    }

    private var footer: [String] {
        var out = ["command: \(commandLine)"]
        if let peak = ProcessMemory.peakResidentKiB() {
            out.append("peak RSS of the benchmark process (VmHWM): \(peak / 1024) MiB")
        }
        return out
    }
}
