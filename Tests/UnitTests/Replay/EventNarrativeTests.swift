import LedgerCore
import Testing

@Suite("Event narrative")
struct EventNarrativeTests {
    @Test("every catalogued type has its own sentence, built from its example payloads")
    func everyTypeHasASentence() throws {
        for schema in EventCatalogue.schemas {
            for example in schema.examples {
                let checked = try EventCatalogue.validate(type: schema.type, schemaVersion: schema.version, payload: example, context: .standard)
                let sentence = EventNarrative.sentence(type: schema.type, payload: example, derived: .object(checked.derived))
                #expect(!sentence.contains("no description for this type"), "\(schema.type)")
                #expect(sentence.hasSuffix(".") || sentence.hasSuffix("\""), "\(schema.type): \(sentence)")
            }
        }
    }

    @Test("sentences carry the facts a support person asks about")
    func sentencesCarryFacts() throws {
        let answer = EventNarrative.sentence(type: "ParentalAnswerReceived", payload: [
            "questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318", "choiceId": "allow", "choiceTitle": "Allow",
            "answer": "approval", "receivedAt": "2026-11-20T18:41:03Z", "channel": "inPerson",
        ], derived: nil)
        #expect(answer == "A parent answered question 6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318: approval (\"Allow\"), in person, "
                + "received 2026-11-20T18:41:03Z; guardian not disclosed by the platform.")
        let shared = EventNarrative.sentence(type: "AgeRangeShared", payload: [
            "upperBound": 12, "ageRangeDeclaration": "guardianDeclared", "activeParentalControls": ["communicationLimits"],
        ], derived: ["legalCategory": "under13", "verifiedAdult": false])
        #expect(shared == "An age range was shared: under 13, category under13, declared guardianDeclared; parental controls: communicationLimits.")
        let gate = EventNarrative.sentence(type: "AccessGateApplied", payload: [
            "feature": "sharedRooms", "state": "open", "basis": [], "policyVersion": "2026-11",
        ], derived: nil)
        #expect(gate == "The app OPENED feature sharedRooms (policy 2026-11), citing no event.")
    }
}
