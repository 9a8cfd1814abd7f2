import Foundation

/// NDJSON files of simulated events, for the benchmarks that run `consent-ledger append --file`.
enum EventsFile {
    /// Writes the next `count` lines of `source` to `path`; returns the file's size in bytes.
    static func write(_ count: Int, from source: SimulatedEvents, to path: String) async throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot write \(path)")
        }
        defer { try? handle.close() }
        var bytes = 0
        var left = count
        while left > 0 {
            let lines = try await source.nextLines(min(50_000, left))
            if lines.isEmpty { break }
            left -= lines.count
            let text = Data((lines.joined(separator: "\n") + "\n").utf8)
            bytes += text.count
            try handle.write(contentsOf: text)
        }
        return bytes
    }
}
