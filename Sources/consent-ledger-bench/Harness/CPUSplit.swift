import Foundation

/// Who used the cores during a client-server measurement, party by party (Linux `/proc`): the load
/// generator (this process), the server under test (a child process), PostgreSQL (the postmaster
/// and its backends) and everything else. On 2 cores the load generator competes with what it
/// measures, so a report says how much it took.
struct CPUSplit: Sendable {
    private let machine = MachineTicks()
    private let generator: Int64
    private let server: Int64
    private let postgres: Int64
    private let serverPid: Int32
    private let postmasterPid: Int?

    /// Cores used on average by each party.
    struct Cores: Sendable {
        var generator = 0.0, server = 0.0, postgres = 0.0, others = 0.0

        /// Adds another measurement's figures (to average over rounds afterwards).
        static func + (a: Cores, b: Cores) -> Cores {
            Cores(generator: a.generator + b.generator, server: a.server + b.server,
                  postgres: a.postgres + b.postgres, others: a.others + b.others)
        }

        /// Each figure divided by `n`.
        func averaged(over n: Int) -> Cores {
            let d = Double(max(n, 1))
            return Cores(generator: generator / d, server: server / d, postgres: postgres / d, others: others / d)
        }
    }

    /// The counters now, for the server process `serverPid` and the PostgreSQL of `postmasterPid`.
    init(serverPid: Int32, postmasterPid: Int?) {
        self.serverPid = serverPid
        self.postmasterPid = postmasterPid
        generator = CPUShare.ticks("self", children: true)   // wrk, a child, counts once waited
        server = CPUShare.ticks("\(serverPid)", children: false)
        postgres = postmasterPid.map { pid in
            CPUShare.ticks("\(pid)", children: true)
                + ServerProcesses.children(of: pid).reduce(0) { $0 + CPUShare.ticks("\($1)", children: false) }
        } ?? 0
    }

    /// The cores each party used on average since `start` (nil without /proc).
    func cores(since start: CPUSplit) -> Cores? {
        let elapsed = machine.total - start.machine.total
        guard elapsed > 0 else { return nil }
        let perCore = Double(elapsed) / Double(ProcessInfo.processInfo.activeProcessorCount)
        let busy = Double(machine.busy - start.machine.busy) / perCore
        var cores = Cores(generator: Double(generator - start.generator) / perCore,
                          server: Double(server - start.server) / perCore,
                          postgres: Double(postgres - start.postgres) / perCore)
        cores.others = max(0, busy - cores.generator - cores.server - cores.postgres)
        return cores
    }
}
