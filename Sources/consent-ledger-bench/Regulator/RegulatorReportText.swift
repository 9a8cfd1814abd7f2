import Foundation
import LedgerReportModel

/// The regulator benchmark's printed result: the log, the machine and the setup; the quarter and
/// the jurisdictions; per jurisdiction each round's report time step by step, the report's size
/// and figures, and the peak memory; the baselines; the report's time beside them; the target.
struct RegulatorReportText {
    /// The time aimed at for one report, in seconds (issue 19: under 5 s for US-TX and for US; the
    /// first issue's aim was 10 s).
    static let target = 5.0

    var setup: RegulatorSetup
    /// True when the log was found loaded in a kept cluster.
    var reused: Bool
    var projections: RegulatorProjections.Setup
    var checkpoint: BenchCheckpoint
    var server: ServerFacts
    var facts: FactsSize
    var scope: RegulatorScope
    var baselines: [RegulatorBaselines.Timing]
    /// One list of rounds per jurisdiction, in `scope.jurisdictions`' order.
    var runs: [[RegulatorRun]]
    var rounds: Int
    var machineBusyPercent: Double?
    var commandLine: String
    /// The kept cluster's folder, if any.
    var clusterFolder: String?
    /// When the run ended, UTC.
    var date: String

    /// The report, as lines for standard output.
    var lines: [String] {
        header + scopeLines + scope.jurisdictions.indices.flatMap(reportLines) + baselineLines + ratioLines + targetLines + footer
    }

    private typealias T = ReportText

    private static func stamp(_ date: Date) -> String { UTCTime.seconds(Int64(date.timeIntervalSince1970)) }

    private static func mib(_ kib: Int?) -> String { kib.map { "\(T.grouped(Double($0) / 1024)) MiB" } ?? "-" }

    private static func share(_ part: Int64, _ whole: Int64) -> String {
        whole > 0 ? T.fixed(100 * Double(part) / Double(whole), 1) + "%" : "-"
    }

    private var header: [String] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let loadRate = Double(setup.events) / setup.loadSeconds
        var out = [
            "regulator report benchmark, \(date): a log of \(T.grouped(Double(setup.events))) events (simulated: "
                + "\(T.grouped(Double(setup.families))) families over \(setup.days) days, seed \(setup.seed); events ~\(setup.meanEventBytes) "
                + "bytes canonical) that occurred from \(Self.stamp(scope.first)) to \(Self.stamp(scope.last))",
            "ledger.events \(T.megabytes(server.eventsHeapBytes)) + indexes \(T.megabytes(server.eventsIndexBytes)); report_facts.facts "
                + "\(T.grouped(Double(projections.factsRows))) rows, \(T.megabytes(facts.heapBytes)) + indexes \(T.megabytes(facts.indexBytes)), "
                + "period_counts \(T.megabytes(facts.periodCountsBytes)), install_days \(T.megabytes(facts.installDaysBytes)) (with indexes); "
                + "anomalies.findings \(T.grouped(Double(projections.findings))) rows, \(T.megabytes(facts.findingsBytes))",
            "machine: \(cores) core\(cores == 1 ? "" : "s")\(Self.cpuModel.map { " (\($0))" } ?? ""), \(T.fixed(memory, 1)) GiB RAM; "
                + "PostgreSQL \(server.version), durable cluster, shared_buffers \(server.sharedBuffers), work_mem \(server.workMem), "
                + "temp_buffers \(server.tempBuffers) (set by the connection), max_wal_size \(server.maxWalSize)",
            reused
                ? "setup (not measured): the log was loaded by an earlier run (\(setup.loadedAt), kept cluster) through ledger.append_events "
                    + "in batches of \(T.grouped(Double(setup.loadBatchSize))) in \(T.fixed(setup.loadSeconds, 0)) s "
                    + "(\(T.grouped(loadRate)) events/s)"
                : "setup (not measured): loaded through ledger.append_events in batches of \(T.grouped(Double(setup.loadBatchSize))) in "
                    + "\(T.fixed(setup.loadSeconds, 1)) s (\(T.grouped(loadRate)) events/s)",
        ]
        if let seconds = projections.seconds {
            out.append("projections report_facts and anomalies brought to the head (ProjectionRebuilder: one pass each, two connections, "
                + "chunks of 50,000; then ProjectionRunner.runOnce): \(T.fixed(seconds, 1)) s, "
                + "\(T.grouped(Double(setup.events) / seconds)) positions/s"
                + (projections.eventsStaged.map { ", \(T.grouped(Double($0))) events staged" } ?? "")
                + " (the one-off cost the report relies on, decision 0013)")
        } else {
            out.append("projections report_facts and anomalies: already at the head"
                + (projections.earlierSeconds.map { " (brought there by an earlier run in \(T.fixed($0, 1)) s, "
                    + "\(T.grouped(Double(setup.events) / $0)) positions/s)" } ?? ""))
        }
        out.append(checkpoint.line)
        out += ["then VACUUM (ANALYZE) of report_facts.facts, period_counts, install_days, anomalies.findings, and CHECKPOINT", ""]
        return out
    }

    private var scopeLines: [String] {
        let q = scope.quarter
        var out = [
            "quarter \(q.label): [\(Self.stamp(q.from)), \(Self.stamp(q.to))) on the device clock, \(scope.chosenBecause): "
                + "\(T.grouped(Double(q.events))) events of the log occurred in it (\(Self.share(q.events, Int64(setup.events))) of the log), "
                + "\(T.grouped(Double(scope.factsRows))) report_facts rows",
            "full quarters of the span: " + scope.candidates.map { "\($0.label) \(T.grouped(Double($0.events)))" }.joined(separator: ", "),
            "report_facts rows of the quarter by jurisdiction: " + scope.byJurisdiction.map {
                "\($0.code ?? "none") \(T.grouped(Double($0.rows))) (\(Self.share($0.rows, scope.factsRows)))"
            }.joined(separator: ", "),
            "reports for: " + scope.jurisdictions.map { "\($0.code) (\(T.grouped(Double($0.rows))) rows in the quarter)" }
                .joined(separator: ", "),
            "",
        ]
        if scope.quarter.events == 0 { out.insert("WARNING: no event occurred in the quarter", at: 0) }
        return out
    }

    private func reportLines(_ index: Int) -> [String] {
        let code = scope.jurisdictions[index].code
        let runs = self.runs[index]
        guard let first = runs.first else { return [] }
        let totals = runs.map(\.seconds)
        let median = PathTiming.median(totals)
        var out = [
            "regulator report \(code), \(scope.quarter.label), as of the head (position \(T.grouped(Double(first.verifiedThrough)))): "
                + "RegulatorReport.compute as the auditor, a fresh pool each time (as `consent-ledger report regulator`); seconds",
            T.pad("step", 56) + runs.indices.map { T.lpad("round \($0 + 1)", 9) }.joined() + T.lpad("median", 9) + T.lpad("share", 8),
        ]
        for (step, name) in first.stepNames.enumerated() {
            let values = runs.map { step < $0.stepSeconds.count ? $0.stepSeconds[step] : .nan }
            let stepMedian = PathTiming.median(values)
            out.append(T.pad(name, 56) + values.map { T.lpad(T.fixed($0, 2), 9) }.joined() + T.lpad(T.fixed(stepMedian, 2), 9)
                + T.lpad(T.fixed(100 * stepMedian / median, 1) + "%", 8))
        }
        out.append(T.pad("total", 56) + totals.map { T.lpad(T.fixed($0, 2), 9) }.joined() + T.lpad(T.fixed(median, 2), 9))
        out.append("(steps as RegulatorReport names them; each lasts until the next starts; the last includes the rollback and the seal)")
        let integrity = runs.map { $0.integritySeconds ?? .nan }
        out.append(T.pad("the integrity check, alongside steps 2 on", 56) + integrity.map { T.lpad(T.fixed($0, 2), 9) }.joined()
            + T.lpad(T.fixed(PathTiming.median(integrity), 2), 9))
        let passed = first.integrityPassed ? "integrity passed through position \(T.grouped(Double(first.verifiedThrough)))"
            : "INTEGRITY FAILED"
        out.append("report: \(T.grouped(Double(first.bytes))) bytes of sealed JSON; eventsInPeriod \(T.grouped(Double(first.eventsInPeriod))), "
            + "eventsInJurisdiction \(T.grouped(Double(first.eventsInJurisdiction))), questionsSent \(T.grouped(Double(first.questionsSent))), "
            + "violations \(T.grouped(Double(first.violations))), coverage installs \(T.grouped(Double(first.installs))); \(passed)")
        if runs.contains(where: { $0.bytes != first.bytes || $0.questionsSent != first.questionsSent || $0.violations != first.violations }) {
            out.append("WARNING: the rounds' reports differ: " + runs.map { "\($0.bytes) bytes" }.joined(separator: ", "))
        }
        let notes = Set(runs.flatMap(\.notes))
        out.append(notes.isEmpty ? "read the live report_facts and anomalies tables, filtered by position (no time travel)"
                                 : "NOTE: " + notes.sorted().joined(separator: "; "))
        out += [
            "memory: bench = this process's VmHWM, reset just before the report (+ its growth over the resident size then); backends = the server processes of the report's pool "
                + "(and their parallel workers): VmHWM (kernel peak, shared buffers touched included), RssAnon (private, sampled); "
                + "temp = temporary files the server wrote; disk = what the backends read from storage, not the page cache "
                + "(/proc/<pid>/io read_bytes); cores = CPU used on average during the report by the bench and the server, "
                + "and by other processes (a shared machine)",
            T.pad("", 10) + T.lpad("bench", 20) + T.lpad("backends", 10) + T.lpad("max VmHWM", 12) + T.lpad("max RssAnon", 13)
                + T.lpad("sum RssAnon", 13) + T.lpad("temp files", 12) + T.lpad("disk", 10) + T.lpad("samples", 9) + T.lpad("cores", 7) + T.lpad("others", 8),
        ]
        for (round, run) in runs.enumerated() {
            var growth = ""
            if let peak = run.benchPeakKiB, let before = run.benchBeforeKiB { growth = " (+\(Self.mib(peak - before)))" }
            out.append(T.pad("round \(round + 1)", 10) + T.lpad(Self.mib(run.benchPeakKiB) + growth + (run.benchPeakReset ? "" : "*"), 20)
                + T.lpad(run.backends.map { "\($0.count)" } ?? "-", 10) + T.lpad(Self.mib(run.largestBackendHWM), 12)
                + T.lpad(Self.mib(run.largestBackendAnon), 13) + T.lpad(Self.mib(run.summedBackendAnon), 13)
                + T.lpad(T.megabytes(run.tempBytes), 12) + T.lpad(run.storageReadBytes.map(T.megabytes) ?? "-", 10)
                + T.lpad("\(run.memorySamples)", 9)
                + T.lpad(run.oursCores.map { T.fixed($0, 2) } ?? "-", 7) + T.lpad(run.otherCores.map { T.fixed($0, 2) } ?? "-", 8))
        }
        if runs.contains(where: { !$0.benchPeakReset }) { out.append("* could not reset: the process's peak since it started") }
        if runs.contains(where: { $0.backends == nil }) { out.append("backends: /proc of the server could not be read") }
        return out + [""]
    }

    private var baselineLines: [String] {
        var out = [
            "baselines on the same rows, as the auditor with the server's defaults (the planner's choice, parallel workers allowed); "
                + "one untimed run each, then one per round before the reports",
            T.pad("query", 42) + T.lpad("rows", 13) + T.lpad("best s", 9) + T.lpad("median s", 10) + "  plan",
        ]
        for timing in baselines {
            let rows = timing.query.name.hasPrefix("sum(") ? "\(T.megabytes(timing.value))" : T.grouped(Double(timing.value))
            out.append(T.pad(timing.query.name, 42) + T.lpad(rows, 13) + T.lpad(T.fixed(timing.best, 3), 9)
                + T.lpad(T.fixed(timing.median, 3), 10) + "  " + timing.plan)
        }
        return out + [""]
    }

    private var ratioLines: [String] {
        var out = [
            "the report beside the baselines: report ÷ baseline (best ÷ best, median ÷ median)",
            T.pad("", 42) + scope.jurisdictions.map { T.lpad("\($0.code) best", 14) + T.lpad("median", 9) }.joined(),
            T.pad("report total, s", 42) + runs.map { rounds in
                T.lpad(T.fixed(rounds.map(\.seconds).min() ?? .nan, 2), 14) + T.lpad(T.fixed(PathTiming.median(rounds.map(\.seconds)), 2), 9)
            }.joined(),
        ]
        for timing in baselines {
            out.append(T.pad("÷ " + timing.query.name, 42) + runs.map { rounds in
                T.lpad(T.fixed((rounds.map(\.seconds).min() ?? .nan) / timing.best, 1), 14)
                    + T.lpad(T.fixed(PathTiming.median(rounds.map(\.seconds)) / timing.median, 1), 9)
            }.joined())
        }
        return out + [""]
    }

    private var targetLines: [String] {
        var out: [String] = []
        for (index, jurisdiction) in scope.jurisdictions.enumerated() {
            let rounds = runs[index]
            guard let first = rounds.first else { continue }
            let best = rounds.map(\.seconds).min() ?? .nan
            let median = PathTiming.median(rounds.map(\.seconds))
            let stepMedians = first.stepNames.indices.map { step in PathTiming.median(rounds.map { $0.stepSeconds[step] }) }
            let biggest = stepMedians.indices.max { stepMedians[$0] < stepMedians[$1] }
            let verdict = best < Self.target ? "met" : "NOT met (\(T.fixed(best / Self.target, 2))× the target)"
            out.append("target < \(T.fixed(Self.target, 0)) s, \(jurisdiction.code): best \(T.fixed(best, 2)) s, median \(T.fixed(median, 2)) s: "
                + verdict + (biggest.map { "; the biggest step: \(first.stepNames[$0]) (median \(T.fixed(stepMedians[$0], 2)) s, "
                    + "\(T.fixed(100 * stepMedians[$0] / median, 0))%)" } ?? ""))
        }
        return out + [""]
    }

    private var footer: [String] {
        var out = ["command: \(commandLine)"]
        if let clusterFolder { out.append("cluster kept in \(clusterFolder) (reuse it with --keep \(clusterFolder))") }
        if let machineBusyPercent {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            out.append("machine CPU busy during the rounds: \(T.fixed(machineBusyPercent, 0))% of \(cores) cores")
        }
        return out
    }

    /// The CPU's model name (Linux `/proc/cpuinfo`).
    private static var cpuModel: String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) }
    }
}
