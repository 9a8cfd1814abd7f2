import ArgumentParser
import Foundation

/// A duration given on the command line: `10s`, `1.5s`, `500ms`, `2m`, or a bare number of seconds.
struct TimeoutOption: ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// The duration.
    let duration: Duration

    /// A default value.
    init(_ duration: Duration) { self.duration = duration }

    /// Parses `10s`, `500ms`, `2m` or `10`; nil (ArgumentParser then names the option and the
    /// value) for anything else, zero or a negative.
    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value > 0 else { return nil }
        duration = .milliseconds(Int64((value * scale * 1000).rounded()))
        guard duration > .zero else { return nil }
    }

    /// `10s`, `1.5s`, `500ms`: how the default is shown in help.
    var description: String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return milliseconds < 1000 ? "\(milliseconds)ms" : "\(Double(milliseconds) / 1000)s"
    }
}
