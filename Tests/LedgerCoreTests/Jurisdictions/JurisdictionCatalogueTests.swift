import LedgerCore
import Testing

/// `JurisdictionCatalogue`: the ISO 3166 codes compiled in, what each scope takes in, the errors
/// for unknown codes, and the laws that govern a scope (`Law.governing`, `RegulatorLaws`).
@Suite("Jurisdiction catalogue")
struct JurisdictionCatalogueTests {
    let catalogue = JurisdictionCatalogue.standard

    @Test("the iso-codes 4.15.0 data is compiled in: 249 countries, 5,127 subdivisions, with names")
    func data() {
        #expect(catalogue.counts.countries == 249 && catalogue.counts.subdivisions == 5_127)
        #expect(catalogue.name(of: "US-TX") == "Texas" && catalogue.name(of: "DE-BY") == "Bayern")
        #expect(catalogue.name(of: "GB") == "United Kingdom" && catalogue.name(of: "EU") == "European Union")
        #expect(catalogue.entry("US-TX")?.country == "US" && catalogue.entry("US-TX")?.kind == .subdivision)
        #expect(catalogue.entry("EU")?.kind == .group && catalogue.entry("EU")?.country == nil)
    }

    @Test("US-TX, US, GB, DE-BY and EU are known; TX, US-XX, UK, lower case and names are not")
    func known() {
        for code in ["US-TX", "US", "GB", "DE", "DE-BY", "FR", "EU", "US-CA"] { #expect(catalogue.isKnown(code), "\(code)") }
        for code in ["TX", "US-XX", "UK", "us-tx", "Texas", "", "EU-DE", "XX"] { #expect(!catalogue.isKnown(code), "\(code)") }
    }

    @Test("every known code is one the envelope accepts, so a known code is never refused at the door")
    func envelopeAcceptsEveryKnownCode() throws {
        for country in ["US", "DE", "FR", "GB", "SI", "CZ"] {
            for code in try catalogue.scope(of: country).codes {
                #expect(EventEnvelope.Jurisdiction.isValidCode(code), "\(code)")
            }
        }
        #expect(EventEnvelope.Jurisdiction.isValidCode("EU"))
    }

    @Test("a country contains its subdivisions; EU contains DE, FR and DE-BY; a subdivision only itself")
    func containment() {
        #expect(catalogue.contains("US", "US-TX") && catalogue.contains("US", "US"))
        #expect(catalogue.contains("EU", "DE") && catalogue.contains("EU", "FR") && catalogue.contains("EU", "DE-BY"))
        #expect(catalogue.contains("EU", "EU"))
        #expect(!catalogue.contains("EU", "GB") && !catalogue.contains("EU", "US") && !catalogue.contains("EU", "CH"))
        #expect(!catalogue.contains("US-TX", "US") && !catalogue.contains("US", "CA-ON") && !catalogue.contains("DE", "EU"))
        // An unknown code lies within nothing, even under the prefix of a country.
        #expect(!catalogue.contains("US", "US-XX") && !catalogue.contains("EU", "TX"))
    }

    @Test("scopes: EU takes in its 27 member states and their subdivisions, as of 2020-02-01; US its own; US-TX itself")
    func scopes() throws {
        let eu = try catalogue.scope(of: "EU")
        #expect(eu.members.count == 27 && eu.membersAsOf == "2020-02-01" && eu.withSubdivisions)
        #expect(eu.members.contains("DE") && eu.members.contains("FR") && eu.members.contains("GR") && !eu.members.contains("GB"))
        #expect(Set(["EU", "DE", "FR", "DE-BY", "FR-75", "IT-RM"]).isSubset(of: Set(eu.codes)))
        #expect(!eu.codes.contains("GB") && !eu.codes.contains("CH") && !eu.codes.contains("NO"))
        let us = try catalogue.scope(of: "US")
        #expect(us.codes.first == "US" && us.codes.contains("US-TX") && us.codes.count == 58 && us.members == ["US"])
        #expect(!us.codes.contains(where: { !$0.hasPrefix("US") }))
        let texas = try catalogue.scope(of: "US-TX")
        #expect(texas.codes == ["US-TX"] && !texas.withSubdivisions && texas.entry.name == "Texas")
        #expect(texas.json["name"] == "Texas" && texas.json["kind"] == "subdivision")
    }

    @Test("an unknown code is refused with what is wrong and the code probably meant")
    func unknownCodes() {
        func error(_ code: String) -> LedgerError? {
            do { _ = try catalogue.scope(of: code); return nil } catch { return error }
        }
        let tx = error("TX")
        #expect(tx?.code == .invalidField && tx?.field == "jurisdiction")
        #expect(tx?.message == "TX is not an ISO 3166 code")
        #expect(tx?.hint?.hasPrefix("Texas is US-TX.") == true)
        let xx = error("US-XX")
        #expect(xx?.message == "US-XX is not an ISO 3166 code: United States (US) has no subdivision XX")
        #expect(xx?.hint?.hasPrefix("Give US for the whole of United States, or one of its 57 subdivisions such as US-AK (Alaska)") == true)
        #expect(error("UK")?.hint?.hasPrefix("United Kingdom is GB.") == true)
        #expect(error("Texas")?.hint?.hasPrefix("Texas is US-TX.") == true)
        #expect(error("us-tx")?.hint?.hasPrefix("Texas is US-TX.") == true)
        #expect(error("QQ")?.hint?.hasPrefix("Give an ISO 3166-1 country code") == true)
    }

    @Test("the laws that govern a scope: COPPA within the US, never in the EU; Texas's law in Texas only")
    func governingLaws() {
        #expect(Law.governing("US-TX", among: [.texasSB2420, .californiaAB1043, .coppa, .gdprArticle8]).map(\.id) == ["us-tx-sb2420", "us-coppa"])
        #expect(Law.governing("EU", among: [.coppa, .euDSA, .gdprArticle8, .ukChildrensCode]).map(\.id) == ["eu-dsa-28", "eu-gdpr-8"])
        #expect(Law.governing("DE-BY", among: [.coppa, .gdprArticle8]).map(\.id) == ["eu-gdpr-8"])
        #expect(Law.governing("GB", among: Law.all.filter { !$0.jurisdictions.isEmpty }).map(\.id) == ["gb-aadc"])
        #expect(Law.governing("US", among: [.texasSB2420, .coppa]).map(\.id) == ["us-coppa"])
        #expect(Law.governingPart(of: "US", among: [.texasSB2420, .utahSB142, .coppa]).map(\.id) == ["us-tx-sb2420", "us-ut-sb142"])
        #expect(Law.governingPart(of: "US-TX", among: Law.all).isEmpty)
        #expect(Law.appleDeclaredAgeRange.governs("FR"))
        #expect(Law.texasSB2420.shortTitle == "Texas SB 2420" && Law.coppa.shortTitle == "COPPA")
    }

    @Test("section titles: a Texas report's coverage is Texas SB 2420's, never AB 1043; retention is COPPA's in the US, neutral in the EU")
    func sectionTitles() {
        let texas = RegulatorLaws.coverage(scope: "US-TX")
        #expect(texas["title"] == "Coverage (Texas SB 2420)")
        #expect(texas["laws"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["us-tx-sb2420"])
        let title = texas["title"]?.stringValue ?? ""
        #expect(title.hasPrefix("Coverage (Texas") && !title.contains("AB 1043") && !title.contains("California"))
        #expect(RegulatorLaws.coverage(scope: "US-CA")["title"] == "Coverage (California AB 1043)")
        #expect(RegulatorLaws.coverage(scope: "GB")["title"] == "Coverage (UK Children's Code)")
        #expect(RegulatorLaws.coverage(scope: "EU")["title"] == "Coverage (EU Digital Services Act, Article 28 guidelines)")
        let us = RegulatorLaws.coverage(scope: "US")
        #expect(us["title"] == "Coverage" && us["lawsForParts"]?.arrayValue?.count == 4)
        #expect(RegulatorLaws.retention(scope: "US-TX")["title"] == "Retention and erasure (COPPA)")
        let eu = RegulatorLaws.retention(scope: "EU")
        #expect(eu["title"] == "Retention and erasure" && eu["laws"] == [] && eu["lawsForParts"] == [])
        #expect(RegulatorLaws.retention(scope: "FR")["title"] == "Retention and erasure")
        #expect(RegulatorLaws.coverage(scope: "JP")["title"] == "Coverage")
    }
}
