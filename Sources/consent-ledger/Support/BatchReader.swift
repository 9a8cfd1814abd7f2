import Foundation
import LedgerCore

/// Reads `append`'s input a batch at a time, each line checked into an ``EventInput``.
///
/// Lines are read in slices of ``sliceLines`` and a slice is checked on every core at once (the
/// check is most of a bulk load's client time); the first bad line of a slice, in input order,
/// stops the read. ``Append`` asks for the next batch only once the previous one has arrived, so
/// the reader's state is never touched by two tasks at once.
final class BatchReader: @unchecked Sendable {
    /// One batch: the events and their input line numbers.
    struct Batch: Sendable {
        var events: [EventInput] = []
        var lines: [Int] = []
    }

    /// Lines read before they are checked together.
    static let sliceLines = 2_048

    private var reader: NDJSONReader
    private let batchSize: Int?
    private let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)

    init(reader: NDJSONReader, batchSize: Int?) {
        self.reader = reader
        self.batchSize = batchSize
    }

    /// How many lines the input has, when it is a file.
    var totalLines: Int64? { reader.totalLines }

    /// The next batch, nil at the end of the input.
    /// - Throws: the first bad line's error, located at its line number.
    func next(progress: ProgressBar) async throws -> Batch? {
        var batch = Batch()
        while true {
            let room = batchSize.map { $0 - batch.events.count } ?? Self.sliceLines
            guard room > 0 else { break }
            var slice: [(line: Int, bytes: [UInt8])] = []
            while slice.count < min(room, Self.sliceLines), let (line, bytes) = try reader.next() { slice.append((line, bytes)) }
            if slice.isEmpty { break }
            batch.events += try await check(slice)
            batch.lines += slice.map(\.line)
            progress.update(done: Int64(slice[slice.count - 1].line), total: reader.totalLines)
        }
        return batch.events.isEmpty ? nil : batch
    }

    /// The slice's events, checked in `workers` parts at once, in input order.
    private func check(_ slice: [(line: Int, bytes: [UInt8])]) async throws -> [EventInput] {
        let part = (slice.count + workers - 1) / workers
        let checked = try await withThrowingTaskGroup(of: (Int, Result<[EventInput], LedgerError>).self) { group in
            for start in stride(from: 0, to: slice.count, by: part) {
                let lines = slice[start..<min(start + part, slice.count)]
                group.addTask {
                    var events: [EventInput] = []
                    events.reserveCapacity(lines.count)
                    for (line, bytes) in lines {
                        do throws(LedgerError) { events.append(try EventInput(line: bytes)) } catch { return (start, .failure(error.at(line: line))) }
                    }
                    return (start, .success(events))
                }
            }
            var parts: [(Int, Result<[EventInput], LedgerError>)] = []
            for try await result in group { parts.append(result) }
            return parts.sorted { $0.0 < $1.0 }.map(\.1)
        }
        // The earliest part's error is the first bad line of the slice.
        return try checked.flatMap { try $0.get() }
    }
}
