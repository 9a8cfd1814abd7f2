import LedgerCore
/// How the HTML reports write numbers, durations and times: the same value always the same way,
/// independent of the machine's locale and clock.
enum ReportFormat {
    /// A count with thousands separated by commas: `1,234,567`. Negative counts keep their sign.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A share (0…1) as a percentage with two decimals: `0.8123` → `81.23 %`.
    static func percent(_ share: Double) -> String {
        let hundredths = Int((share * 10_000).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) %"
    }

    /// `part` of `whole` as a percentage, or nil when `whole` is 0.
    static func percent(_ part: Int, of whole: Int) -> String? {
        whole == 0 ? nil : percent(Double(part) / Double(whole))
    }

    /// A duration in words a person reads at a glance: `45 s`, `4 min 10 s`, `5 h 3 min`,
    /// `2 d 4 h`. Seconds below the second unit are dropped (`2 d 4 h` for 2 d 4 h 59 min).
    static func duration(seconds: Int) -> String {
        if seconds < 0 { return "-" + duration(seconds: -seconds) }
        let days = seconds / 86_400, hours = seconds % 86_400 / 3_600
        let minutes = seconds % 3_600 / 60, rest = seconds % 60
        func pair(_ big: Int, _ bigUnit: String, _ small: Int, _ smallUnit: String) -> String {
            small == 0 ? "\(big) \(bigUnit)" : "\(big) \(bigUnit) \(small) \(smallUnit)"
        }
        if days > 0 { return pair(days, "d", hours, "h") }
        if hours > 0 { return pair(hours, "h", minutes, "min") }
        if minutes > 0 { return pair(minutes, "min", rest, "s") }
        return "\(rest) s"
    }

    /// An RFC 3339 time as people read it: `2026-11-20T16:02:19Z` → `2026-11-20 16:02:19 UTC`,
    /// fractions of a second kept (`16:02:19.123456 UTC`). Anything else is returned as it is.
    static func timestamp(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 20, scalars[10] == "T" || scalars[10] == "t" else { return text }
        var result = String(String.UnicodeScalarView(scalars[0..<10])) + " " + String(String.UnicodeScalarView(scalars[11...]))
        if result.hasSuffix("Z") || result.hasSuffix("z") {
            result.removeLast()
            result += " UTC"
        }
        return result
    }

    /// An SVG coordinate: rounded to a tenth, without a trailing `.0` (`12`, `12.5`, `-3.2`).
    static func coordinate(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// `1 question`, `2 questions`.
    static func plural(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count(value)) \(value == 1 ? singular : plural ?? singular + "s")"
    }
}
