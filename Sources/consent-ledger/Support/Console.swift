import Foundation

/// Writing to the terminal: notes, progress and errors to standard error, data to standard output
/// (buffered, so that streaming a million events is not a million system calls).
enum Console {
    /// Writes a line to standard error (notes, progress, errors; standard output stays data).
    static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Buffered writes to standard output.
struct StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    /// Appends bytes, flushing when the buffer is full.
    mutating func write(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends a line.
    mutating func line(_ text: String) {
        write(text.utf8)
        buffer.append(0x0A)
    }

    /// Writes out what is buffered.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
