import Foundation

/// What a kept cluster's log was loaded from and what loading it (and first building its
/// projections) cost, written beside the cluster so that a later run can say so and check that it
/// was asked for the same log.
struct RegulatorSetup: Codable, Sendable {
    var events: Int
    var families: Int
    var seed: UInt64
    var days: Int
    var meanEventBytes: Int
    var loadBatchSize: Int
    /// Wall time of the load.
    var loadSeconds: Double
    /// Wall time of the last timed build of report_facts and anomalies, if any.
    var projectionSeconds: Double?
    /// When the load ended, UTC.
    var loadedAt: String

    /// The setup in `path`, or nil when there is none.
    static func read(_ path: String) throws -> RegulatorSetup? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try JSONDecoder().decode(RegulatorSetup.self, from: data)
    }

    /// Writes it to `path`.
    func write(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The loader's figures.
    var loaded: LogLoader.Loaded {
        LogLoader.Loaded(events: events, families: families, days: days, meanEventBytes: meanEventBytes, seconds: loadSeconds)
    }
}

extension BenchCluster {
    /// Where a kept cluster remembers how it was loaded (``RegulatorSetup``).
    var setupFile: String { cluster.directory.appendingPathComponent("regulator-bench.json").path }
}
