/// Why and where ``JSONParser`` rejected its input.
public struct JSONParseError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Byte offset (0-based) into the input where the problem starts.
    public let offset: Int
    /// Line (1-based) of ``offset``; lines are separated by LF.
    public let line: Int
    /// Column (1-based) of ``offset`` within its line, counted in Unicode scalars.
    public let column: Int
    /// What is wrong, e.g. `duplicate key "a" in object`.
    public let reason: String

    /// Creates an error at an explicit position.
    public init(offset: Int, line: Int, column: Int, reason: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line L, column C: reason`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// A strict RFC 8259 JSON parser that also enforces the I-JSON (RFC 7493) rules that RFC 8785
/// canonicalization depends on.
///
/// Rejected: invalid UTF-8 (including a byte order mark), unescaped control characters in
/// strings, unpaired surrogate escapes, leading zeros, NaN/Infinity, trailing commas, comments,
/// anything after the value, nesting deeper than `maxDepth`, empty input, duplicate object keys
/// (including keys that differ only in Unicode normalization, since `[String: JSONValue]` cannot
/// hold both), numbers that overflow a double, and integers (no fraction or exponent) whose
/// magnitude exceeds 2^53 unless they are written exactly as RFC 8785 writes the double they
/// denote (its shortest form: `100000000000000000`, not `100000000000000001`), so that no digit a
/// sender wrote is changed and the canonical form of every accepted text parses again. Numbers are
/// rounded to the nearest double exactly as `strtod` does.
public enum JSONParser {
    /// Parses one JSON text from UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 encoded JSON text.
    ///   - maxDepth: The maximum nesting of arrays and objects; a top-level container has depth 1.
    ///     Parsing recurses once per level, so keep this modest.
    /// - Throws: ``JSONParseError`` naming the first problem and its position.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        var parser = Parser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses one JSON text held in a Swift string (its UTF-8 encoding is parsed).
    public static func parse(_ string: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        try parse(Array(string.utf8), maxDepth: maxDepth)
    }
}

/// The largest magnitude up to which every integer is exactly representable as a double: 2^53.
private let maxExactIntegerDigits: [UInt8] = Array("9007199254740992".utf8)

private struct Parser {
    let bytes: [UInt8]
    let maxDepth: Int
    var pos = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        try validateUTF8()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw error(at: 0, "byte order mark (U+FEFF) is not allowed")
        }
        skipWhitespace()
        if pos == bytes.count {
            throw error(at: pos, "empty input: expected a JSON value")
        }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if pos < bytes.count {
            throw error(at: pos, "unexpected \(describe(at: pos)) after the JSON value")
        }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard pos < bytes.count else {
            throw error(at: pos, "unexpected end of input: expected a JSON value")
        }
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        default:
            throw unexpectedValueStart()
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth {
            throw error(at: pos, "nesting depth exceeds the maximum of \(maxDepth)")
        }
        pos += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            pos += 1
            return .object(members)
        }
        var commaOffset: Int?
        while true {
            skipWhitespace()
            if let comma = commaOffset, peek(UInt8(ascii: "}")) {
                throw error(at: comma, "trailing comma in object")
            }
            guard peek(UInt8(ascii: "\"")) else {
                throw unexpected("expected a string key in object")
            }
            let keyOffset = pos
            let key = try parseString()
            if let index = members.index(forKey: key) {
                let existing = members[index].key
                var reason = "duplicate key \(quoted(key)) in object"
                if !existing.unicodeScalars.elementsEqual(key.unicodeScalars) {
                    reason += " (canonically equivalent to key \(quoted(existing)); keys that differ"
                        + " only in Unicode normalization are not allowed)"
                }
                throw error(at: keyOffset, reason)
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw unexpected("expected ':' after object key")
            }
            pos += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth)
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                commaOffset = pos
                pos += 1
            } else if peek(UInt8(ascii: "}")) {
                pos += 1
                return .object(members)
            } else {
                throw unexpected("expected ',' or '}' in object")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth {
            throw error(at: pos, "nesting depth exceeds the maximum of \(maxDepth)")
        }
        pos += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            pos += 1
            return .array(elements)
        }
        var commaOffset: Int?
        while true {
            skipWhitespace()
            if let comma = commaOffset, peek(UInt8(ascii: "]")) {
                throw error(at: comma, "trailing comma in array")
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                commaOffset = pos
                pos += 1
            } else if peek(UInt8(ascii: "]")) {
                pos += 1
                return .array(elements)
            } else {
                throw unexpected("expected ',' or ']' in array")
            }
        }
    }

    mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        let end = pos + expected.count
        guard end <= bytes.count, bytes[pos..<end].elementsEqual(expected) else {
            throw unexpectedValueStart()
        }
        pos = end
    }

    /// The error for a byte that cannot start a value, with a specific reason for common
    /// non-JSON syntax (comments, single quotes, NaN/Infinity, misspelled literals).
    func unexpectedValueStart() -> JSONParseError {
        guard pos < bytes.count else {
            return error(at: pos, "unexpected end of input: expected a JSON value")
        }
        switch bytes[pos] {
        case UInt8(ascii: "/"):
            return error(at: pos, "comments are not allowed in JSON")
        case UInt8(ascii: "'"):
            return error(at: pos, "strings must be enclosed in double quotes")
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            let word = self.word(at: pos)
            if word == "NaN" || word == "Infinity" {
                return error(at: pos, "\(word) is not allowed in JSON")
            }
            return error(at: pos, "invalid literal '\(word)': expected a JSON value")
        default:
            return error(at: pos, "unexpected \(describe(at: pos)): expected a JSON value")
        }
    }

    // MARK: Strings

    /// Parses a string starting at the opening quote and returns its decoded contents.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = pos
        pos += 1  // "
        var buffer: [UInt8] = []
        while true {
            guard pos < bytes.count else {
                throw error(at: start, "unterminated string")
            }
            let byte = bytes[pos]
            switch byte {
            case UInt8(ascii: "\""):
                pos += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0x00..<0x20:
                throw error(at: pos, "unescaped control character \(scalarName(UInt32(byte))) in string")
            default:
                buffer.append(byte)  // the input is already known to be valid UTF-8
                pos += 1
            }
        }
    }

    mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let start = pos
        pos += 1  // backslash
        guard pos < bytes.count else {
            throw error(at: start, "unterminated string")
        }
        let byte = bytes[pos]
        pos += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeStart: start)
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                guard pos + 1 < bytes.count,
                      bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u")
                else {
                    throw error(at: start, "unpaired high surrogate \(escapeName(unit)) in string")
                }
                let lowStart = pos
                pos += 2
                let low = try hexQuad(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(at: start, "unpaired high surrogate \(escapeName(unit)) in string"
                        + " (followed by \(escapeName(low)), not a low surrogate)")
                }
                scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw error(at: start, "unpaired low surrogate \(escapeName(unit)) in string")
            default:
                scalarValue = unit
            }
            // Surrogates were handled above, so this always succeeds.
            let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            throw error(at: start, "invalid escape sequence '\\\(describeRaw(at: start + 1))' in string")
        }
    }

    /// Reads the four hex digits after `\u`; `pos` is just past the `u`.
    mutating func hexQuad(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard pos < bytes.count, let digit = hexValue(bytes[pos]) else {
                throw error(at: escapeStart, "invalid \\u escape: expected four hexadecimal digits")
            }
            value = value << 4 | digit
            pos += 1
        }
        return value
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = pos
        let negative = bytes[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else {
            if pos < bytes.count, word(at: pos) == "Infinity" {
                throw error(at: start, "-Infinity is not allowed in JSON")
            }
            throw unexpected("expected a digit after '-'")
        }
        let integerStart = pos
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) {
                throw error(at: start, "leading zeros are not allowed in numbers")
            }
        } else {
            skipDigits()
        }
        let integerEnd = pos
        var isInteger = true
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw unexpected("expected a digit after the decimal point")
            }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            pos += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else {
                throw unexpected("expected a digit in the exponent")
            }
            skipDigits()
        }
        let lexeme = String(decoding: bytes[start..<pos], as: UTF8.self)
        // The lexeme matches the RFC 8259 grammar, which Double(_:) (strtod, correctly rounded)
        // accepts; it returns ±infinity on overflow.
        guard let value = Double(lexeme), value.isFinite else {
            throw error(at: start, "number \(abbreviated(lexeme)) is out of range for an IEEE-754 double"
                + " (it overflows to infinity)")
        }
        if isInteger {
            let digits = bytes[integerStart..<integerEnd]
            let beyondExact = digits.count > maxExactIntegerDigits.count
                || (digits.count == maxExactIntegerDigits.count
                    && maxExactIntegerDigits.lexicographicallyPrecedes(digits))
            if beyondExact {
                let stored = CanonicalJSON.encodeString(.number(value))
                if stored != lexeme {
                    throw error(at: start, "integer \(abbreviated(lexeme)) is beyond 2^53 = 9007199254740992, where an IEEE-754"
                        + " double does not keep every digit: it would be stored as \(abbreviated(stored)); send it as a string")
                }
            }
        }
        return value
    }

    mutating func skipDigits() {
        while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }

    // MARK: UTF-8

    /// Checks the whole input is well-formed UTF-8 (Unicode 15, table 3-7): no overlong forms,
    /// no encoded surrogates, nothing above U+10FFFF, no truncated sequences.
    func validateUTF8() throws(JSONParseError) {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default:
                throw error(at: index, "invalid UTF-8: byte \(hexByte(lead)) cannot start a character")
            }
            for offset in 1..<length {
                guard index + offset < bytes.count else {
                    throw error(at: index, "invalid UTF-8: truncated sequence starting with \(hexByte(lead))")
                }
                let byte = bytes[index + offset]
                let range = offset == 1 ? secondRange : 0x80...0xBF
                guard range.contains(byte) else {
                    throw error(at: index + offset,
                                "invalid UTF-8: byte \(hexByte(byte)) cannot follow \(hexByte(lead)) here")
                }
            }
            index += length
        }
    }

    // MARK: Helpers

    func peek(_ byte: UInt8) -> Bool {
        pos < bytes.count && bytes[pos] == byte
    }

    mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    /// An error at `pos` saying what was expected and what was found instead.
    func unexpected(_ expectation: String) -> JSONParseError {
        if pos >= bytes.count {
            return error(at: pos, "unexpected end of input: \(expectation)")
        }
        switch bytes[pos] {
        case UInt8(ascii: "/"):
            return error(at: pos, "comments are not allowed in JSON")
        case UInt8(ascii: "'"):
            return error(at: pos, "strings must be enclosed in double quotes")
        default:
            return error(at: pos, "\(expectation), found \(describe(at: pos))")
        }
    }

    /// Builds an error at `offset`, computing its line and column.
    func error(at offset: Int, _ reason: String) -> JSONParseError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count scalars, not continuation bytes
                column += 1
            }
        }
        return JSONParseError(offset: offset, line: line, column: column, reason: reason)
    }

    /// The run of ASCII letters starting at `offset`.
    func word(at offset: Int) -> String {
        var end = offset
        while end < bytes.count, end - offset < 32,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end] | 0x20) {
            end += 1
        }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// "character 'x'" or "character U+00E9" for the character at `offset`.
    func describe(at offset: Int) -> String {
        let byte = bytes[offset]
        if (0x21...0x7E).contains(byte) {
            return "character '\(Character(Unicode.Scalar(byte)))'"
        }
        return "character \(scalarName(scalarValue(at: offset)))"
    }

    /// The character at `offset` as it would appear in source, for error messages.
    func describeRaw(at offset: Int) -> String {
        guard offset < bytes.count else { return "" }
        let byte = bytes[offset]
        if (0x21...0x7E).contains(byte) { return String(Character(Unicode.Scalar(byte))) }
        return scalarName(scalarValue(at: offset))
    }

    /// Decodes the scalar starting at `offset` (the input is known to be valid UTF-8).
    func scalarValue(at offset: Int) -> UInt32 {
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar.value }
        return UInt32(bytes[offset])
    }
}

private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

private func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}

private func hexDigits(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

private func hexByte(_ byte: UInt8) -> String { "0x" + hexDigits(UInt32(byte), width: 2) }

private func scalarName(_ value: UInt32) -> String { "U+" + hexDigits(value, width: 4) }

private func escapeName(_ unit: UInt32) -> String { "\\u" + hexDigits(unit, width: 4) }

/// A key rendered as a JSON string literal, for error messages.
private func quoted(_ key: String) -> String { CanonicalJSON.encodeString(.string(key)) }

private func abbreviated(_ lexeme: String) -> String {
    lexeme.utf8.count <= 40 ? lexeme : String(lexeme.prefix(32)) + "..."
}
