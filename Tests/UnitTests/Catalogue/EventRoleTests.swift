import LedgerCore
import LedgerGenerators
import Testing

/// Event roles are declared once beside the types (issue 37: "is this event an age signal" was
/// written in two folds), and the SQL the folds call is generated from them.
@Suite("Event roles")
struct EventRoleTests {
    @Test("the age signals are AgeRangeShared, PlayAgeSignalReceived and an AgeVerificationCompleted that passed")
    func ageSignals() throws {
        let declared = EventCatalogue.schemas.filter { $0.roles.contains { $0.name == .ageSignal } }.map(\.type)
        #expect(Set(declared) == ["AgeRangeShared", "PlayAgeSignalReceived", "AgeVerificationCompleted"])
        let check = try #require(EventCatalogue.schema(for: "AgeVerificationCompleted"))
        for outcome in ["passed", "failed", "inconclusive"] {
            guard case .object(var members) = check.example else { Issue.record("the example is not an object"); return }
            members["outcome"] = .string(outcome)
            let payload = JSONValue.object(members)
            #expect(check.plays(.ageSignal, payload: payload) == (outcome == "passed"), "\(outcome)")
        }
        #expect(EventCatalogue.schema(for: "AgeRangeDeclined")?.plays(.ageSignal, payload: [:]) == false)
    }

    @Test("each role is one generated SQL function naming exactly its types")
    func generatedSQL() throws {
        let file = try #require(CatalogueSQL.files.first { $0.name == "event-roles.sql" })
        #expect(file.text.contains("CREATE OR REPLACE FUNCTION ledger.is_age_signal(p_type text, p_payload jsonb)"))
        for type in ["AgeRangeShared", "PlayAgeSignalReceived"] { #expect(file.text.contains("WHEN '\(type)' THEN true"), "\(type)") }
        #expect(file.text.contains("WHEN 'AgeVerificationCompleted' THEN coalesce(p_payload ->> 'outcome' = 'passed', false)"))
    }
}
