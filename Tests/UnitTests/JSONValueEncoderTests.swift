import Foundation
import LedgerCore
import Testing

/// The direct encoder gives the same canonical bytes as Foundation's `JSONEncoder` read back by
/// our parser (the path it replaced), for every shape a `Codable` type can take.
@Suite("JSONValueEncoder")
struct JSONValueEncoderTests {
    enum Colour: String, Codable { case red, blue }

    struct Inner: Codable, Equatable {
        var name: String
        var weight: Double
        var tags: [String]
    }

    enum Choice: Codable {
        case none
        case one(Int64)
        case named(label: String, inner: Inner)
    }

    struct Everything: Codable {
        var text: String
        var flag: Bool
        var small: Int
        var big: Int64
        var unsigned: UInt32
        var fraction: Double
        var missing: String?
        var present: Int?
        var colour: Colour
        var inners: [Inner]
        var nested: [[Int]]
        var byName: [String: Inner]
        var optionals: [String?]
        var free: JSONValue
        var choices: [Choice]
    }

    static func sample(_ n: Int) -> Everything {
        Everything(
            text: "é\u{1F600}\"\\\n\u{0001} line \(n)", flag: n % 2 == 0, small: -n, big: 9_007_199_254_740_991 - Int64(n),
            unsigned: UInt32(n), fraction: 1.0 / Double(n + 3), missing: nil, present: n % 3 == 0 ? n : nil,
            colour: n % 2 == 0 ? .red : .blue,
            inners: (0..<n % 4).map { Inner(name: "i\($0)", weight: Double($0) * 0.25, tags: ["b", "a"]) },
            nested: [[], [n], [1, 2, 3]],
            byName: ["zeta": Inner(name: "z", weight: 1e21, tags: []), "alpha": Inner(name: "a", weight: -0.0, tags: ["x"])],
            optionals: ["a", nil, "c"],
            free: .object(["b": .array([.null, .bool(true), .number(5e-7)]), "a": .string("x")]),
            choices: [.none, .one(Int64(n)), .named(label: "l", inner: Inner(name: "n", weight: 2, tags: []))])
    }

    @Test("same canonical bytes as JSONEncoder read back, for every Codable shape", arguments: 0..<12)
    func sameBytesAsTheTextRoundTrip(n: Int) throws {
        let value = Self.sample(n)
        let viaText = CanonicalJSON.encode(try JSONParser.parse([UInt8](try JSONEncoder().encode(value))))
        let direct = try CanonicalJSON.encode(encodable: value)
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: viaText, as: UTF8.self))
    }

    @Test("a number JSON cannot hold is refused, as JSONEncoder refuses it")
    func nonFiniteIsRefused() {
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(encodable: [Double.nan]) }
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(encodable: ["x": Double.infinity]) }
    }

    @Test("what it writes decodes back to the value")
    func decodesBack() throws {
        let inner = Inner(name: "n", weight: 0.5, tags: ["q"])
        #expect(try JSONDecoder().decode(Inner.self, from: Data(try CanonicalJSON.encode(encodable: inner))) == inner)
    }
}
