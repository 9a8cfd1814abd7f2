import Foundation
import LedgerCore

/// Reads NDJSON from a file or standard input, one line at a time, in constant memory.
/// Blank lines are skipped; line numbers count every line, so errors point at the right one.
struct NDJSONReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    private(set) var lineNumber = 0

    /// The longest line read before giving up (well above the 64 KiB event limit).
    static let maxLineBytes = 1 << 20

    /// How many lines the input has, when it is a regular file (counted when opened, for progress);
    /// nil for standard input.
    private(set) var totalLines: Int64?

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws {
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            totalLines = Self.countLines(path)
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw LedgerError(.invalidRequest, "cannot open \(path) for reading",
                                  hint: "Check the path; use - to read standard input.")
            }
            handle = opened
        }
    }

    /// The number of line ends in a regular file (plus one for an unterminated last line), read in
    /// large chunks; nil when `path` is not a regular file (a pipe can be read only once).
    static func countLines(_ path: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        var count: Int64 = 0
        var last: UInt8 = 0x0A
        while true {
            let chunk = file.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { bytes in
                for byte in bytes where byte == 0x0A { count += 1 }
                last = bytes[bytes.count - 1]
            }
        }
        return last == 0x0A ? count : count + 1
    }

    /// The next non-blank line and its number, or nil at the end.
    mutating func next() throws -> (line: Int, bytes: [UInt8])? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[start..<end])
                start = newline + 1
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return (lineNumber, line)
            }
            if finished {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                lineNumber += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                return (lineNumber, line)
            }
            if buffer.count - start > Self.maxLineBytes {
                throw LedgerError(.recordTooLarge, "line \(lineNumber + 1) is longer than \(Self.maxLineBytes) bytes",
                                  line: lineNumber + 1, hint: "Write one event per line; an event may be at most 64 KiB.")
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let chunk = handle.readData(ofLength: 1 << 16)
            if chunk.isEmpty { finished = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
