import Foundation
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

    /// A period of 2027, when the Texas, Utah and California acts all applied.
    static let year2027 = (from: Date(timeIntervalSince1970: 1_798_761_600), to: Date(timeIntervalSince1970: 1_830_297_600))

    /// A quarter from its first day.
    static func quarter(_ day: String) -> (from: Date, to: Date) {
        let from = Date(timeIntervalSince1970: TimeInterval(RFC3339.epochSeconds(day + "T00:00:00Z")!))
        return (from, from.addingTimeInterval(90 * 86_400))
    }

    @Test("section titles: a Texas report's coverage is Texas SB 2420's, never AB 1043; retention is COPPA's in the US, neutral in the EU")
    func sectionTitles() {
        let (from, to) = Self.year2027
        func coverage(_ scope: String) -> [String: JSONValue] { RegulatorLaws.coverage(scope: scope, from: from, to: to) }
        func retention(_ scope: String) -> [String: JSONValue] { RegulatorLaws.retention(scope: scope, from: from, to: to) }
        let texas = coverage("US-TX")
        #expect(texas["title"] == "Coverage (Texas SB 2420)")
        #expect(texas["laws"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["us-tx-sb2420"])
        let title = texas["title"]?.stringValue ?? ""
        #expect(title.hasPrefix("Coverage (Texas") && !title.contains("AB 1043") && !title.contains("California"))
        #expect(coverage("US-CA")["title"] == "Coverage (California AB 1043)")
        #expect(coverage("GB")["title"] == "Coverage (UK Children's Code)")
        #expect(coverage("EU")["title"] == "Coverage (EU Digital Services Act, Article 28 guidelines)")
        let us = coverage("US")
        #expect(us["title"] == "Coverage" && us["lawsForParts"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
                == ["us-tx-sb2420", "us-ut-sb142", "us-la-hb977", "us-ca-ab1043"])
        #expect(retention("US-TX")["title"] == "Retention and erasure (COPPA)")
        let eu = retention("EU")
        #expect(eu["title"] == "Retention and erasure" && eu["laws"] == [] && eu["lawsForParts"] == [])
        #expect(retention("FR")["title"] == "Retention and erasure")
        #expect(coverage("JP")["title"] == "Coverage")
    }

    @Test("a report names only the laws that applied during its period: Texas SB 2420 not while enjoined, Utah SB 142 not before 2027-05-06 (postponed by HB 498), Louisiana's HB 570 never and HB 977 from 2027-07-01")
    func lawsInForceDuringThePeriod() {
        func ids(_ section: [String: JSONValue], _ member: String) -> [String] {
            section[member]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        let enjoined = Self.quarter("2026-01-01")
        let texasQ1 = RegulatorLaws.coverage(scope: "US-TX", from: enjoined.from, to: enjoined.to)
        #expect(texasQ1["title"] == "Coverage" && ids(texasQ1, "laws") == [] && ids(texasQ1, "lawsNotInForce") == ["us-tx-sb2420"])
        let stayed = Self.quarter("2026-05-01")   // the Fifth Circuit's stay of 2026-05-28 falls in it
        #expect(ids(RegulatorLaws.coverage(scope: "US-TX", from: stayed.from, to: stayed.to), "laws") == ["us-tx-sb2420"])
        let utahBefore = RegulatorLaws.coverage(scope: "US-UT", from: enjoined.from, to: enjoined.to)
        #expect(ids(utahBefore, "laws") == [] && ids(utahBefore, "lawsNotInForce") == ["us-ut-sb142"])
        #expect(ids(RegulatorLaws.coverage(scope: "US-UT", from: stayed.from, to: stayed.to), "lawsNotInForce") == ["us-ut-sb142"])
        #expect(ids(RegulatorLaws.coverage(scope: "US-UT", from: Self.year2027.from, to: Self.year2027.to), "laws") == ["us-ut-sb142"])
        let louisiana2026 = RegulatorLaws.coverage(scope: "US-LA", from: stayed.from, to: stayed.to)
        #expect(ids(louisiana2026, "laws") == [] && ids(louisiana2026, "lawsNotInForce") == ["us-la-hb570", "us-la-hb977"])
        let louisiana = RegulatorLaws.coverage(scope: "US-LA", from: Self.year2027.from, to: Self.year2027.to)
        #expect(ids(louisiana, "laws") == ["us-la-hb977"] && ids(louisiana, "lawsNotInForce") == ["us-la-hb570"])
        let california2026 = RegulatorLaws.coverage(scope: "US-CA", from: stayed.from, to: stayed.to)
        #expect(ids(california2026, "lawsNotInForce") == ["us-ca-ab1043"])
        #expect(ids(RegulatorLaws.retention(scope: "US", from: enjoined.from, to: enjoined.to), "laws") == ["us-coppa"])
        for law in Law.all {
            #expect(!law.status.isEmpty, "\(law.id) has no status")
            #expect(law.effective == nil || law.effective.flatMap { RFC3339.epochSeconds($0 + "T00:00:00Z") } != nil, "\(law.id)'s effective day")
        }
    }
}
