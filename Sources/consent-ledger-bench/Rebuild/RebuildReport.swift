import Foundation

/// The rebuild benchmark's printed result: the run described, the scan baselines, one line per
/// projection rebuild (and the six one at a time and together) with its rates and ratios to the
/// scans, the target, and where the time goes.
struct RebuildReport {
    /// The rebuild rate aimed at, in positions (log events) per second.
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
    /// How busy all cores were during the baselines and rebuilds, in percent.
    var machineBusyPercent: Double?
    var commandLine: String
    /// When the run ended, UTC.
    var date: String

    /// The report, as lines for standard output.
    var lines: [String] { header + baselineLines + rebuildLines + footer }

    private typealias T = ReportText

    private var header: [String] {
        [
            "rebuild benchmark, \(date): a log of \(T.grouped(Double(loaded.events))) events (simulated: \(T.grouped(Double(loaded.families))) "
                + "families over \(loaded.days) days, seed \(seed); events ~\(loaded.meanEventBytes) bytes canonical), "
                + "ledger.events \(T.megabytes(server.eventsHeapBytes)) + indexes \(T.megabytes(server.eventsIndexBytes))",
            "PostgreSQL \(server.version), \(T.coreCount), durable cluster, shared_buffers \(server.sharedBuffers), "
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
            "rebuilds: ProjectionRebuilder.rebuild (build schemas, chunks of \(T.grouped(Double(chunkSize))) positions, swap), "
                + "\(rounds) round\(rounds == 1 ? "" : "s"), each after a CHECKPOINT; positions = the log's length",
            T.pad("projection", 26) + T.lpad("best s", 8) + T.lpad("median s", 10) + T.lpad("positions/s", 13)
                + T.lpad("events read", 13) + T.lpad("events read/s", 15) + T.lpad("÷ scan", 9) + T.lpad("÷ scan+parse", 14),
        ]
        let rows = zip(rebuilds.projections, rebuilds.eventsRead).map { ($0, $1) }
            + [(rebuilds.oneAtATime, rebuilds.eventsRead.reduce(0, +)), (rebuilds.onePass, rebuilds.onePassEvents)]
        for (timing, eventsRead) in rows {
            let best = timing.roundSeconds.min() ?? .nan
            out.append(T.pad(timing.name, 26) + T.lpad(T.fixed(best, 2), 8) + T.lpad(T.fixed(PathTiming.median(timing.roundSeconds), 2), 10)
                + T.lpad(T.grouped(timing.bestRate), 13) + T.lpad(T.grouped(Double(eventsRead)), 13)
                + T.lpad(T.grouped(Double(eventsRead) / best), 15) + T.lpad(T.fixed(timing.bestRate / scanRate, 3), 9)
                + T.lpad(T.fixed(timing.bestRate / parseRate, 3), 14))
        }
        let met = rebuilds.projections.filter { $0.bestRate >= Self.target }
        let slowest = rebuilds.projections.min { $0.bestRate < $1.bestRate }
        out += [
            "",
            "target >= \(T.grouped(Self.target)) positions/s: met by \(met.count) of \(rebuilds.projections.count) projections alone"
                + (slowest.map { " (slowest \($0.name), \(T.fixed($0.bestRate / Self.target, 2)) of the target)" } ?? "")
                + "; all six together: \(T.fixed(rebuilds.onePass.bestRate / Self.target, 2)) of the target",
            "÷ scan = positions/s ÷ rows/s of \"\(baselines[ScanBaselines.scanIndex].name)\"; "
                + "÷ scan+parse = ÷ rows/s of \"\(baselines[ScanBaselines.parseIndex].name)\"",
        ]
        let backends = rebuilds.onePassBackends
        if !backends.isEmpty {
            let mib = { (kib: Int) in T.fixed(Double(kib) / 1024, 0) }
            let perRound = Double(backends.map(\.anonKiB).reduce(0, +)) / Double(max(1, rounds))
            out.append("server memory of all six together (\(backends.count) backends over \(rounds) round(s): the folder's, "
                + "the reader's): largest VmHWM \(mib(backends.map(\.hwmKiB).max() ?? 0)) MiB (shared buffers it "
                + "touched included), largest private (RssAnon) \(mib(backends.map(\.anonKiB).max() ?? 0)) MiB, "
                + "private together \(mib(Int(perRound))) MiB a round")
        }
        out.append("")
        return out
    }

    private var footer: [String] {
        var out = ["command: \(commandLine)"]
        if let machineBusyPercent {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            out.append("machine CPU busy during the baselines and rebuilds: \(T.fixed(machineBusyPercent, 0))% of \(cores) cores "
                + "(one backend working alone is about \(T.fixed(100 / Double(cores), 0))%; more means something else competed)")
        }
        return out + [T.peakMemoryLine].compactMap { $0 }
    }
}
