import ArgumentParser
import LedgerApplication
import LedgerCore
import LedgerPostgres

/// `consent-ledger project run`.
struct ProjectRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Bring every projection to the head of every log, and with --follow keep it there.",
        discussion: """
            Projections not built yet, or built by a different definition, are rebuilt first. Each step \
            folds up to --chunk-size events and moves the checkpoint in the same transaction, so the \
            runner can be stopped (or killed) at any moment and started again; several runners may run \
            at once, on one machine or many: one advances a projection at a time. An event a fold \
            cannot take stops only its log, for that projection, just before it (nothing is skipped): \
            the other logs are caught up, the stalled ones are listed (also by `project status`) and the \
            command exits non-zero; every later run tries the event again and resumes the log once it folds.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Log positions folded per step (one transaction).")
    var chunkSize: Int64 = 10_000

    @Flag(help: ArgumentHelp("Keep running: catch up whenever events are appended (LISTEN/NOTIFY), and poll as well.",
                             discussion: "Stop it with Ctrl-C. On the embedded database, start it first with `db start` (it then keeps running afterwards; `db stop` stops it)."))
    var follow = false

    @Option(help: "With --follow: the longest wait between passes, in seconds.")
    var pollSeconds: Int = 5

    @Option(name: .customLong("checkpoint-every"),
            help: ArgumentHelp("With --follow: also sign a checkpoint of every log that has grown, this often (e.g. 10s, 1m), "
                                   + "for a deployment that runs no server.", valueName: "duration"))
    var checkpointEvery: TimeoutOption?

    @OptionGroup var signingKey: SigningKeyOptions

    func validate() throws {
        if checkpointEvery != nil, !follow { throw ValidationError("--checkpoint-every needs --follow") }
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        guard pollSeconds >= 1 else { throw ValidationError("--poll-seconds must be at least 1") }
    }

    func run() async throws {
        if let checkpointEvery {
            try await followSigning(every: checkpointEvery)
            return
        }
        let stalls = try await LedgerDatabase.with(try database.target(), role: .administrator, progress: Console.note) { pool in
            let runner = ProjectionRunner(pool: pool, chunkSize: chunkSize)
            if follow {
                Console.note("following the logs; stop with Ctrl-C")
                try await ProjectionFollower(runner: runner, pollInterval: .seconds(pollSeconds))
                    .follow(note: { Console.note($0) })
                return [ProjectionStall]()
            } else {
                let bar = ProgressBar(label: "building projections", unit: "positions")
                let stalls = try await runner.runOnce(note: { bar.finish(); Console.note($0) },
                                                      progress: { bar.update(done: $0, total: $1) })
                bar.finish()
                return stalls
            }
        }
        try ProjectStalls.report(stalls)
        try Console.out("projections are at the head of every log")
    }

    /// `--follow --checkpoint-every`: the projections followed and the checkpoints signed side by
    /// side, until Ctrl-C (or either fails).
    private func followSigning(every interval: TimeoutOption) async throws {
        let key = try signingKey.load(dataFolder: database.dataFolder())
        try await Ledger.with(try database.target(), progress: Console.note) { ledger in
            Console.note("following the logs and signing a checkpoint of every log that has grown, every \(interval), "
                         + "with \(key.name); stop with Ctrl-C")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await ProjectionFollower(runner: ProjectionRunner(pool: ledger.pools.administrator, chunkSize: chunkSize),
                                                 pollInterval: .seconds(pollSeconds)).follow(note: { Console.note($0) })
                }
                group.addTask { try await ledger.keepCheckpoints(every: interval.duration, key: key, note: { Console.note($0) }) }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
