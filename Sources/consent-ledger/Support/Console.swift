import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thrown when standard output's reader has gone (`| head` has read enough, `| less` was quit):
/// the command stops, stops an embedded database it started, and exits with 141 (128 + SIGPIPE),
/// the status a shell shows for a program that a closed pipe ended, without printing anything.
struct OutputClosed: Error {}

/// Writing to the terminal: notes, progress and errors to standard error, data to standard output.
///
/// Every byte the tool prints goes through here, with `write(2)`: Foundation's `FileHandle.write`
/// traps (`try!`) on a closed pipe, and `print` hides the failure.
enum Console {
    /// Writes a line to standard error (notes, progress, errors; standard output stays data).
    /// A closed standard error is ignored: there is nobody left to tell.
    static func note(_ line: String) {
        _ = writeAll(STDERR_FILENO, Array((line + "\n").utf8))
    }

    /// Writes text to standard error as it is (progress redrawn with `\r`).
    static func noteRaw(_ text: String) {
        _ = writeAll(STDERR_FILENO, Array(text.utf8))
    }

    /// Writes a line of data to standard output.
    /// - Throws: ``OutputClosed`` when the reader has gone.
    static func out(_ line: String) throws(OutputClosed) {
        try outRaw(Array((line + "\n").utf8))
    }

    /// Writes bytes to standard output as they are.
    /// - Throws: ``OutputClosed`` when the reader has gone.
    static func outRaw(_ bytes: [UInt8]) throws(OutputClosed) {
        guard writeAll(STDOUT_FILENO, bytes) else { throw OutputClosed() }
    }

    /// Whether standard error is a terminal (progress is then redrawn in place).
    static let errorIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes every byte, retrying short writes and interruptions; false when the file is closed
    /// for writing (EPIPE) or fails otherwise.
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}

/// Buffered writes to standard output, so that streaming a million events is not a million
/// system calls.
struct StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    /// Appends bytes, flushing when the buffer is full.
    /// - Throws: ``OutputClosed`` when the reader has gone.
    mutating func write(_ bytes: some Sequence<UInt8>) throws(OutputClosed) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends a line.
    mutating func line(_ text: String) throws(OutputClosed) {
        try write(text.utf8)
        buffer.append(0x0A)
    }

    /// Writes out what is buffered.
    mutating func flush() throws(OutputClosed) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try Console.outRaw(buffer)
    }
}
