/// Splits a SQL file into its statements, so that each can be sent on its own (PostgreSQL's
/// extended protocol, which PostgresNIO uses, takes one statement at a time).
///
/// Understands what can hide a `;`: `--` and nested `/* */` comments, `'…'` strings (with `''`),
/// `"…"` identifiers and `$tag$…$tag$` dollar quotes. Comment-only pieces are dropped.
public enum SQLScript {
    /// The statements of `script`, trimmed, without their final `;`.
    public static func statements(in script: String) -> [String] {
        let s = Array(script.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var hasCode = false
        var i = 0
        func flush() {
            let text = String(current).trimmingWhitespace()
            if hasCode, !text.isEmpty { statements.append(text) }
            current = String.UnicodeScalarView()
            hasCode = false
        }
        while i < s.count {
            let c = s[i]
            let next: Unicode.Scalar? = i + 1 < s.count ? s[i + 1] : nil
            if c == "-", next == "-" {
                while i < s.count, s[i] != "\n" { current.append(s[i]); i += 1 }
                continue
            }
            if c == "/", next == "*" {
                var depth = 0
                repeat {
                    if s[i] == "/", i + 1 < s.count, s[i + 1] == "*" { depth += 1; current.append(s[i]); i += 1 }
                    else if s[i] == "*", i + 1 < s.count, s[i + 1] == "/" { depth -= 1; current.append(s[i]); i += 1 }
                    current.append(s[i]); i += 1
                } while depth > 0 && i < s.count
                continue
            }
            if c == ";" {
                flush()
                i += 1
                continue
            }
            if !c.properties.isWhitespace { hasCode = true }
            if c == "'" || c == "\"" {
                current.append(c); i += 1
                while i < s.count {
                    current.append(s[i])
                    if s[i] == c {
                        if i + 1 < s.count, s[i + 1] == c { current.append(s[i + 1]); i += 2; continue }
                        i += 1
                        break
                    }
                    i += 1
                }
                continue
            }
            if c == "$", let tagEnd = dollarTagEnd(s, from: i) {
                let tag = Array(s[i...tagEnd])
                current.unicodeScalars(append: tag)
                i = tagEnd + 1
                while i < s.count {
                    if s[i] == "$", i + tag.count <= s.count, Array(s[i..<(i + tag.count)]) == tag {
                        current.unicodeScalars(append: tag)
                        i += tag.count
                        break
                    }
                    current.append(s[i]); i += 1
                }
                continue
            }
            current.append(c)
            i += 1
        }
        flush()
        return statements
    }

    /// The index of the closing `$` of a dollar-quote tag starting at `start`, if it is one.
    private static func dollarTagEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        var j = start + 1
        while j < s.count {
            let c = s[j]
            if c == "$" { return j }
            let isTagChar = c == "_" || c.properties.isAlphabetic || (j > start + 1 && ("0"..."9").contains(c))
            guard isTagChar else { return nil }
            j += 1
        }
        return nil
    }
}

private extension String.UnicodeScalarView {
    mutating func unicodeScalars(append scalars: [Unicode.Scalar]) {
        for scalar in scalars { append(scalar) }
    }
}

private extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
