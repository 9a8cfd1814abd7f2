import Foundation

/// Column and number formatting for the printed reports.
enum ReportText {
    /// `text` padded on the right to `width` (at least one space after it).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` padded on the left to `width` (at least one space before it).
    static func lpad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    /// `1,234,567`: a whole number with thousands separators; `-` when not finite.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let digits = String(Int(value.rounded()).magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }

    /// `1234567`: a whole number without separators; `-` when not finite.
    static func whole(_ value: Double) -> String { value.isFinite ? String(Int(value.rounded())) : "-" }

    /// `value` with `digits` decimals; `-` when not finite.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "-"
    }

    /// `1,234 MB` (10^6 bytes).
    static func megabytes(_ bytes: Int64) -> String { grouped(Double(bytes) / 1e6) + " MB" }

    /// `2 cores`: the machine's active processors.
    static var coreCount: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return "\(cores) core\(cores == 1 ? "" : "s")"
    }

    /// The report's line on the benchmark process's peak memory (nil where /proc is not available).
    static var peakMemoryLine: String? {
        ProcessMemory.peakResidentKiB().map { "peak RSS of the benchmark process (VmHWM): \($0 / 1024) MiB" }
    }

    /// The command line as typed, then the options in effect (defaults included), as
    /// `<typed>  (in effect: <subcommand and options>)`.
    static func commandLine(inEffect: String) -> String {
        "\(typedCommandLine)  (in effect: \(inEffect))"
    }

    /// The command line as typed (arguments quoted where the shell needs it).
    static var typedCommandLine: String {
        CommandLine.arguments.map { argument in
            argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:".contains($0) } ? argument : "'\(argument)'"
        }.joined(separator: " ")
    }
}
