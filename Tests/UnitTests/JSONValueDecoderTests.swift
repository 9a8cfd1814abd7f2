import Foundation
import LedgerCore
import Testing

/// Decoding straight from the tree gives what `JSONDecoder` gives from the text (the path it
/// replaced), for every shape a `Codable` type can take, and refuses what it refuses.
@Suite("JSONValueDecoder")
struct JSONValueDecoderTests {
    typealias Everything = JSONValueEncoderTests.Everything

    @Test("the same value as JSONDecoder reading the text, for every Codable shape", arguments: 0..<12)
    func sameAsJSONDecoder(n: Int) throws {
        let text = try JSONEncoder().encode(JSONValueEncoderTests.sample(n))
        let tree = try JSONParser.parse([UInt8](text))
        let viaText = try JSONDecoder().decode(Everything.self, from: text)
        let direct = try tree.decoded(as: Everything.self)
        #expect(try CanonicalJSON.encode(encodable: direct) == CanonicalJSON.encode(encodable: viaText))
        #expect(try CanonicalJSON.encode(encodable: direct) == CanonicalJSON.encode(tree))
    }

    @Test("every catalogue example decodes to the same payload both ways")
    func catalogueExamples() throws {
        var checked = 0
        for schema in EventCatalogue.schemas {
            for payload in schema.examples {
                let direct = try EventCatalogue.validate(type: schema.type, schemaVersion: schema.version, payload: payload, context: .standard)
                #expect(CanonicalJSON.encode(direct.payload.jsonValue) == CanonicalJSON.encode(payload), "\(schema.type)")
                checked += 1
            }
        }
        #expect(checked >= EventCatalogue.schemas.count)
    }

    @Test("what JSONDecoder refuses is refused: a fraction for an integer, a string for a number, a missing member")
    func refusals() throws {
        struct Counted: Decodable { var count: Int }
        #expect(throws: DecodingError.self) { try JSONValue.object(["count": .number(13.5)]).decoded(as: Counted.self) }
        #expect(throws: DecodingError.self) { try JSONValue.object(["count": .string("13")]).decoded(as: Counted.self) }
        #expect(throws: DecodingError.self) { try JSONValue.object([:]).decoded(as: Counted.self) }
        #expect(throws: DecodingError.self) { try JSONValue.object(["count": .number(1e30)]).decoded(as: Counted.self) }
        #expect(try JSONValue.object(["count": .number(13)]).decoded(as: Counted.self).count == 13)
    }
}
