import Foundation

/// A progress bar on standard error: redrawn in place on a terminal, and on anything else (a log,
/// CI) written as a plain line at most every few seconds, so long work always shows it is moving.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var lastLine = ContinuousClock.now - .seconds(60)
    private var drawn = false

    init(label: String) { self.label = label }

    /// Shows `done` of `total`, with `detail` on non-terminals.
    func update(done: Int64, total: Int64, detail: String) {
        lock.lock()
        defer { lock.unlock() }
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))% \(done)/\(total)".utf8))
            drawn = true
        } else if ContinuousClock.now - lastLine >= .seconds(3) {
            lastLine = .now
            FileHandle.standardError.write(Data((detail + "\n").utf8))
        }
    }

    /// Ends the bar's line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
