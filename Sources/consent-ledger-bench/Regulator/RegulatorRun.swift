import Foundation
import LedgerCore
import LedgerPostgres
import LedgerReportModel
import Logging
import PostgresNIO

/// One timed regulator report, as `consent-ledger report regulator` computes it: a pool of its
/// own as the auditor (fresh backends), `RegulatorReport.compute` for the log's head, each step
/// timed from the `progress` callback's step starts; the benchmark process's peak memory (reset
/// just before), the server backends' (``BackendMemory``), the temporary files the server wrote
/// for it, and a few of the report's figures, so that the run is seen to do real work.
struct RegulatorRun: Sendable {
    /// The step names, in order: 0 is what comes before step 1 (checking the parameters, reading
    /// the head and its chain hash); the last also holds the rollback and the sealing of the JSON.
    var stepNames: [String] = []
    /// Seconds of each step, in the order of ``stepNames``.
    var stepSeconds: [Double] = []
    /// Wall time of `compute`.
    var seconds = 0.0
    /// The sealed JSON's size.
    var bytes = 0
    /// Figures from the report.
    var eventsInPeriod: Int64 = 0
    var eventsInJurisdiction: Int64 = 0
    var questionsSent: Int64 = 0
    var violations = 0
    var installs: Int64 = 0
    var integrityPassed = false
    var verifiedThrough: Int64 = 0
    /// What `compute` said about how it read the projections (empty: the live tables).
    var notes: [String] = []
    /// Seconds from step 1's start (the integrity check, which runs alongside the other steps) to
    /// the note that it ended; nil if no such note came.
    var integritySeconds: Double?
    /// Peak RSS of the benchmark process during the report (VmHWM after a reset), KiB; nil if unknown.
    var benchPeakKiB: Int?
    /// Whether the peak was reset before the report (else it is the process's peak since it started).
    var benchPeakReset = false
    /// The process's resident size just before the report, KiB (what the peak grew from).
    var benchBeforeKiB: Int?
    /// The server processes that served it, with their peaks; nil when /proc could not be read.
    var backends: [BackendMemory.Peak]?
    var memorySamples = 0
    /// `temp_bytes` and `temp_files` of the database during the report (pg_stat_database).
    var tempBytes: Int64 = 0
    var tempFiles: Int64 = 0
    /// Cores used on average during the report by the bench and the server, and by other processes.
    var oursCores: Double?
    var otherCores: Double?

    /// Computes the report once.
    static func measure(_ parameters: RegulatorReport.Parameters, target: DatabaseTarget, dataDirectory: String,
                        admin: LedgerPool, sampleInterval: Duration, logger: Logger) async throws -> RegulatorRun {
        var run = RegulatorRun()
        let (tempBytesBefore, tempFilesBefore) = try await tempUsage(admin: admin, logger: logger)
        let auditor = target.settings(role: .auditor).username
        let memory = BackendMemory(dataDirectory: dataDirectory, user: auditor)
        let sampler = Task { await memory?.run(every: sampleInterval) }
        let steps = StepClock()
        let postmaster = ServerProcesses.postmasterPid(dataDirectory: dataDirectory)
        let result = try await LedgerDatabase.with(target, role: .auditor, keepRunning: true, logger: logger) { client in
            run.benchPeakReset = ProcessMemory.resetPeak()
            run.benchBeforeKiB = BackendMemory.status(of: Int(getpid()))?["VmRSS"]
            let cpu = CPUShare(postmasterPid: postmaster)
            let watch = Stopwatch()
            steps.mark(0, "before step 1: parameters, head and its chain hash")
            let result = try await RegulatorReport.compute(
                parameters, pool: client, logger: logger,
                progress: { step, total, what in
                    steps.mark(step, "\(step)/\(total) \(what)")
                    Progress.note("    step \(step) of \(total): \(what)")
                },
                note: { steps.note($0) })
            run.seconds = watch.elapsedSeconds
            if let used = CPUShare(postmasterPid: postmaster).cores(since: cpu) { (run.oursCores, run.otherCores) = used }
            run.benchPeakKiB = ProcessMemory.peakResidentKiB()
            memory?.sample()    // the backends are still connected: their VmHWM is final
            return result
        }
        sampler.cancel()
        _ = await sampler.value
        (run.stepNames, run.stepSeconds, run.notes) = steps.result(end: run.seconds)
        run.integritySeconds = steps.integritySeconds
        if let memory {
            (run.backends, run.memorySamples) = memory.result
            // The pool is closed: wait for its backends to exit, which flushes their statistics.
            for _ in 0..<100 where memory.anyAlive { try await Task.sleep(for: .milliseconds(50)) }
        }
        let (tempBytesAfter, tempFilesAfter) = try await tempUsage(admin: admin, logger: logger)
        (run.tempBytes, run.tempFiles) = (tempBytesAfter - tempBytesBefore, tempFilesAfter - tempFilesBefore)
        run.bytes = result.json.count
        let report = result.report
        run.eventsInPeriod = Int64(report["scope"]?["eventsInPeriod"]?.doubleValue ?? -1)
        run.eventsInJurisdiction = Int64(report["scope"]?["eventsInJurisdiction"]?.doubleValue ?? -1)
        run.questionsSent = Int64(report["consent"]?["questionsSent"]?.doubleValue ?? -1)
        run.violations = report["violations"]?.arrayValue?.count ?? -1
        run.installs = Int64(report["coverage"]?["installs"]?.doubleValue ?? -1)
        run.integrityPassed = report["integrity"]?["passed"]?.boolValue ?? false
        run.verifiedThrough = Int64(report["integrity"]?["verifiedThrough"]?.doubleValue ?? -1)
        return run
    }

    /// The database's temporary-file counters.
    private static func tempUsage(admin: LedgerPool, logger: Logger) async throws -> (Int64, Int64) {
        for try await row in try await admin.query(
            "SELECT temp_bytes, temp_files FROM pg_stat_database WHERE datname = current_database()", logger: logger
        ).decode((Int64, Int64).self) { return row }
        return (0, 0)
    }

    /// The largest VmHWM of one backend, KiB.
    var largestBackendHWM: Int? { backends?.map(\.hwmKiB).max() }
    /// The largest private memory (RssAnon) of one backend, KiB.
    var largestBackendAnon: Int? { backends?.map(\.anonKiB).max() }
    /// What the backends read from storage (not from the page cache), bytes.
    var storageReadBytes: Int64? { backends.map { $0.reduce(0) { $0 + $1.storageReadBytes } } }
    /// The sum of the backends' private peaks (an upper bound of their private memory at once), KiB.
    var summedBackendAnon: Int? { backends.map { $0.reduce(0) { $0 + $1.anonKiB } } }
}

/// The instants at which the report's steps started, from the `progress` callback.
private final class StepClock: @unchecked Sendable {
    private let lock = NSLock()
    private let start = ContinuousClock.now
    private var marks: [(Int, String, Double)] = []
    private var notes: [String] = []

    func mark(_ step: Int, _ name: String) {
        let elapsed = ContinuousClock.now - start
        lock.lock()
        marks.append((step, name, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        lock.unlock()
    }

    /// Keeps a note on how the projections were read; the integrity check's end (a note starting
    /// `integrity: `) is timed from step 1's start instead.
    func note(_ text: String) {
        let elapsed = ContinuousClock.now - start
        lock.lock()
        defer { lock.unlock() }
        guard text.hasPrefix("integrity: ") else {
            notes.append(text)
            return
        }
        if let stepOne = marks.first(where: { $0.0 == 1 })?.2 {
            integrityEnd = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 - stepOne
        }
    }

    private var integrityEnd: Double?

    /// Seconds from step 1's start to the end of the integrity check.
    var integritySeconds: Double? {
        lock.lock()
        defer { lock.unlock() }
        return integrityEnd
    }

    /// Names and durations (each step until the next starts; the last until `end` seconds after
    /// step 0's mark), and the notes.
    func result(end: Double) -> ([String], [Double], [String]) {
        lock.lock()
        defer { lock.unlock() }
        guard let origin = marks.first?.2 else { return ([], [], notes) }
        var names: [String] = [], seconds: [Double] = []
        for (index, mark) in marks.enumerated() {
            names.append(mark.1)
            let next = index + 1 < marks.count ? marks[index + 1].2 : origin + end
            seconds.append(next - mark.2)
        }
        return (names, seconds, notes)
    }
}
