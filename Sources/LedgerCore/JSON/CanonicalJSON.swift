/// The JSON Canonicalization Scheme of RFC 8785 (JCS).
///
/// Output has no whitespace; object members are sorted by their names compared as arrays of
/// UTF-16 code units; strings are escaped per RFC 8785 §3.2.2.2 and otherwise emitted as literal
/// UTF-8 without Unicode normalization; numbers are serialized as ECMAScript's
/// `Number.prototype.toString` does (§3.2.2.3).
public enum CanonicalJSON {
    /// The canonical UTF-8 bytes of `value`.
    ///
    /// - Precondition: every number in `value` is finite. RFC 8785 forbids NaN and infinities;
    ///   ``JSONParser`` never produces them, so only hand-built values can violate this.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output)
        return output
    }

    /// The canonical form of `value` as a Swift string (the same bytes as ``encode(_:)``).
    ///
    /// - Precondition: every number in `value` is finite.
    public static func encodeString(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    /// Serializes a finite double as ECMAScript `Number::toString(x)` does, as RFC 8785 §3.2.2.3
    /// requires. The steps are those of ECMA-262 6th edition §7.1.12.1 (ToString applied to the
    /// Number type), which the RFC cites:
    ///
    /// 1. NaN → `"NaN"`. Not valid JSON: a precondition failure here.
    /// 2. +0 or −0 → `"0"`.
    /// 3. x < 0 → `"-"` followed by the serialization of −x.
    /// 4. +∞ → `"Infinity"`. Not valid JSON: a precondition failure here.
    /// 5. Let n, k and s be integers with k ≥ 1, 10^(k−1) ≤ s < 10^k, s × 10^(n−k) = x, and k as
    ///    small as possible; if several s qualify, take the one for which s × 10^(n−k) is closest
    ///    to x (Note 2). These are the shortest round-trip digits, which Swift's
    ///    `Double.description` produces; they are re-laid-out below.
    /// 6. If k ≤ n ≤ 21: the k digits of s, then n − k zeros (`"1000"`).
    /// 7. If 0 < n ≤ 21: the first n digits of s, `"."`, the remaining k − n digits (`"1.5"`).
    /// 8. If −6 < n ≤ 0: `"0."`, −n zeros, the digits of s (`"0.000001"`).
    /// 9. If k = 1: the digit, `"e"`, `"+"` or `"-"` for the sign of n − 1, then |n − 1|
    ///    (`"1e+21"`, `"1e-7"`).
    /// 10. Otherwise: the first digit, `"."`, the remaining k − 1 digits, `"e"`, the sign of n − 1,
    ///     then |n − 1| (`"1.5e-7"`).
    public static func numberString(_ x: Double) -> String {
        precondition(x.isFinite, "RFC 8785 cannot serialize the number \(x): NaN and infinities are not JSON")
        if x == 0 { return "0" }  // step 2, including -0
        if x < 0 { return "-" + numberString(-x) }  // step 3

        // Step 5: digits of s and the decimal exponent n from the shortest round-trip form,
        // which Swift spells as "123.45", "0.0001", "1e-05", "5e-324" or "1.2e+23".
        let description = x.description
        let parts = description.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        var digits: [UInt8] = []
        var pointPosition: Int?
        for byte in parts[0].utf8 {
            if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else {
                digits.append(byte)
            }
        }
        var point = pointPosition ?? digits.count
        let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
        digits.removeFirst(leadingZeros)
        point -= leadingZeros
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        let n = point + exponent

        var result: [UInt8] = []
        if k <= n && n <= 21 {  // step 6
            result = digits + [UInt8](repeating: UInt8(ascii: "0"), count: n - k)
        } else if 0 < n && n <= 21 {  // step 7
            result = Array(digits[..<n]) + [UInt8(ascii: ".")] + Array(digits[n...])
        } else if -6 < n && n <= 0 {  // step 8
            result = Array("0.".utf8) + [UInt8](repeating: UInt8(ascii: "0"), count: -n) + digits
        } else {  // steps 9 and 10
            let e = n - 1
            result = [digits[0]]
            if k > 1 { result += [UInt8(ascii: ".")] + Array(digits[1...]) }
            result += Array("e\(e < 0 ? "-" : "+")\(e.magnitude)".utf8)
        }
        return String(decoding: result, as: UTF8.self)
    }

    // MARK: Serialization

    private static func write(_ value: JSONValue, into output: inout [UInt8]) {
        switch value {
        case .null:
            output += Array("null".utf8)
        case .bool(let flag):
            output += Array((flag ? "true" : "false").utf8)
        case .number(let number):
            output += Array(numberString(number).utf8)
        case .string(let string):
            writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // UTF-16 order; for names without code points from U+E000 up (almost all) it is the
            // order of their UTF-8 bytes, which is cheaper to compare.
            let plain = members.keys.allSatisfy { key in key.utf8.allSatisfy { $0 < 0xEE } }
            let sorted = plain ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                               : members.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes a string per RFC 8785 §3.2.2.2: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other
    /// U+0000...U+001F as `\u00xx` (lowercase hex), everything else as literal UTF-8.
    private static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output.append(contentsOf: string.utf8)
            output.append(UInt8(ascii: "\""))
            return
        }
        // Swift strings are always valid Unicode, and bytes below 0x80 in UTF-8 are exactly the
        // ASCII characters, so escaping byte by byte is exact.
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                output += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
