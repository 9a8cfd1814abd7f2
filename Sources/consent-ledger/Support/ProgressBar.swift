import Foundation

/// Progress of long work on standard error, with its rate and the time left.
///
/// On a terminal the line is redrawn in place (at most ten times a second):
/// `verify acme [##########..........] 51%  68,200/133,720 events  33,400/s  ETA 0:02`.
/// On anything else (a log file, CI) it is written as a plain line at most every five seconds, so
/// long work always shows it is moving without flooding a log. Nothing is shown for work that
/// ends within the first second.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let unit: String
    private let lock = NSLock()
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var drawnOnTerminal = false

    /// - Parameters:
    ///   - label: what is being done ("verify acme").
    ///   - unit: what `done` counts ("events", "positions", "steps").
    init(label: String, unit: String = "events") {
        self.label = label
        self.unit = unit
    }

    /// Shows that `done` of `total` (nil: unknown) are done.
    func update(done: Int64, total: Int64?) {
        lock.lock()
        defer { lock.unlock() }
        let now = ContinuousClock.now
        guard now - started >= .seconds(1) else { return }
        let interval: Duration = Console.errorIsTerminal ? .milliseconds(100) : .seconds(5)
        if let lastDrawn, now - lastDrawn < interval { return }
        lastDrawn = now
        let line = Self.line(label: label, unit: unit, done: done, total: total, elapsed: now - started, bar: Console.errorIsTerminal)
        if Console.errorIsTerminal {
            Console.noteRaw("\r\u{1B}[2K" + line)
            drawnOnTerminal = true
        } else {
            Console.note(line)
        }
    }

    /// Ends the bar's line (on a terminal, clears it, so the summary that follows stands alone).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawnOnTerminal { Console.noteRaw("\r\u{1B}[2K") }
        drawnOnTerminal = false
    }

    /// The text of one progress line.
    static func line(label: String, unit: String, done: Int64, total: Int64?, elapsed: Duration, bar: Bool) -> String {
        let seconds = max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, 0.001)
        let rate = Double(done) / seconds
        var parts = [label]
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            if bar {
                let filled = Int(fraction * 20)
                parts.append("[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]")
            }
            parts.append("\(Int(fraction * 100))%")
            parts.append(" \(grouped(done))/\(grouped(total)) \(unit)")
        } else {
            parts.append("\(grouped(done)) \(unit)")
        }
        parts.append(" \(grouped(Int64(rate)))/s")
        if let total, total > done, rate > 0 {
            parts.append(" ETA " + clock(Double(total - done) / rate))
        }
        return parts.joined(separator: " ")
    }

    /// 133720 → "133,720".
    static func grouped(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// Seconds as `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }
}
