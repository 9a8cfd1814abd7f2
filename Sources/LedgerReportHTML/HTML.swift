import LedgerCore
/// A fragment of HTML. The literal parts of an interpolation are markup; every interpolated
/// `String` is escaped (``escape(_:)``), so text from a report can never become markup:
///
/// ```swift
/// let row: HTML = "<td>\(subject)</td>"   // subject "<b>" is written as &lt;b&gt;
/// ```
///
/// Integers interpolate as plain decimals. There is deliberately no interpolation of `Double`:
/// numbers go through ``ReportFormat`` so that the same value is always written the same way.
public struct HTML: ExpressibleByStringInterpolation, Sendable, Equatable {
    /// The markup.
    public private(set) var markup: String

    /// Markup that is already safe (built by this module, never from report data).
    public init(markup: String) { self.markup = markup }

    /// A literal is markup.
    public init(stringLiteral value: String) { markup = value }

    /// An interpolated literal: literal parts as markup, interpolated text escaped.
    public init(stringInterpolation: StringInterpolation) { markup = stringInterpolation.markup }

    /// Plain text, escaped.
    public init(text: String) { markup = HTML.escape(text) }

    /// Nothing.
    public static let empty = HTML(markup: "")

    /// The fragments one after the other, with `separator` between them.
    public static func join(_ fragments: [HTML], separator: HTML = .empty) -> HTML {
        HTML(markup: fragments.map(\.markup).joined(separator: separator.markup))
    }

    /// Both fragments, one after the other.
    public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(markup: lhs.markup + rhs.markup) }

    /// Appends a fragment.
    public static func += (lhs: inout HTML, rhs: HTML) { lhs.markup += rhs.markup }

    /// Builds the markup of an interpolated literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        /// The markup so far.
        public var markup = ""

        /// Reserves room for the literal.
        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// A literal part: markup.
        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }

        /// A fragment: as it is.
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// Fragments: one after the other.
        public mutating func appendInterpolation(_ fragments: [HTML]) {
            for fragment in fragments { markup += fragment.markup }
        }

        /// An integer: plain decimal digits (no grouping), e.g. a log position.
        public mutating func appendInterpolation(_ number: Int) { markup += String(number) }
    }

    /// `text` safe in element content and in quoted attribute values: `&`, `<`, `>`, `"` and `'`
    /// become character references, and control characters that HTML does not allow (C0 except
    /// tab, line feed and carriage return; DEL; C1) become U+FFFD.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
