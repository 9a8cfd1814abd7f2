import LedgerCore
import Testing

/// The regulator report's fixed lists come from the catalogue's enumerations (issue 37: they were
/// copied by hand), in the order the reports have always printed them, so that a report of an
/// older period lays side by side with a new one row for row.
@Suite("The regulator report's fixed lists")
struct RegulatorVocabularyTests {
    @Test("each list is its catalogue enumeration, in the printed order")
    func lists() {
        #expect(RegulatorVocabulary.triggers == ["download", "launch", "accountCreation", "significantChange", "anniversaryRecheck",
                                                  "purchase", "backfill", "other"])
        #expect(RegulatorVocabulary.declarations == ["selfDeclared", "guardianDeclared", "confirmed"])
        #expect(RegulatorVocabulary.ageRangeErrors == ["invalidRequest", "notAvailable"])
        #expect(RegulatorVocabulary.playStatuses == ["VERIFIED", "SUPERVISED", "SUPERVISED_APPROVAL_PENDING", "SUPERVISED_APPROVAL_DENIED",
                                                      "UNKNOWN", "DECLARED"])
    }
}
