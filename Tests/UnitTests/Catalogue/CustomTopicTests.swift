import LedgerCore
import Testing

/// A custom PermissionKit topic carries the text the parent was shown (`topic.custom.description`):
/// optional, bounded, personal data, and added to version 1 without breaking a stored payload.
@Suite("Event catalogue: a custom topic's text")
struct CustomTopicTests {
    typealias F = CatalogueFixtures

    static func question(custom: [String: JSONValue]) -> JSONValue {
        F.example("PermissionQuestionSent", setting: "topic", to: ["custom": .object(custom)])
    }

    @Test("the text shown to the parent is kept and decodes into PermissionTopic.custom(name:description:)")
    func accepted() throws {
        let text = "Your child would like to start live streams that their friends can watch."
        let checked = try #require(F.accepted("PermissionQuestionSent", Self.question(custom: ["name": "liveStreaming", "description": .string(text)])))
        let payload = try #require(checked.payload as? PermissionQuestionSent)
        #expect(payload.topic == .custom(name: "liveStreaming", description: text))
    }

    @Test("a custom topic with only its name, as every stored version-1 payload has, is still version 1 and still valid")
    func nameOnlyStillValid() throws {
        let checked = try #require(F.accepted("PermissionQuestionSent", version: 1, Self.question(custom: ["name": "liveStreaming"])))
        let payload = try #require(checked.payload as? PermissionQuestionSent)
        #expect(payload.topic == .custom(name: "liveStreaming"))
        #expect(!checked.wasUpcast)
        #expect(EventCatalogue.schema(for: "PermissionQuestionSent")?.schemaVersions == [1])
    }

    @Test("an empty text, a text over 1,000 characters or a non-string is refused on payload.topic.custom.description")
    func bounded() {
        for bad: JSONValue in ["", .string(String(repeating: "a", count: 1001)), 42, ["text": "hi"]] {
            expectRefused(F.refusal("PermissionQuestionSent", Self.question(custom: ["name": "liveStreaming", "description": bad])),
                          .invalidField, field: "payload.topic.custom.description")
        }
        #expect(F.refusal("PermissionQuestionSent",
                          Self.question(custom: ["name": "liveStreaming", "description": .string(String(repeating: "a", count: 1000))])) == nil)
    }

    @Test("the text is personal data (free text about one child): sealed under the subject's key, the name is not")
    func personal() {
        #expect(EventCatalogue.personalFields(type: "PermissionQuestionSent").contains("payload.topic.custom.description"))
        #expect(!EventCatalogue.personalFields(type: "PermissionQuestionSent").contains("payload.topic.custom.name"))
    }

    @Test("the narrative names the topic and says its text is sealed, never quoting it")
    func narrative() {
        let sentence = EventNarrative.sentence(type: "PermissionQuestionSent",
                                               payload: Self.question(custom: ["name": "liveStreaming", "description": "Secret words."]),
                                               derived: nil)
        #expect(sentence.contains("liveStreaming (the text shown to the parent sealed)"))
        #expect(!sentence.contains("Secret words."))
    }
}
