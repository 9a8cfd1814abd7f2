/// A law, code or platform rule a ledger rule rests on: what it is called, where it is published,
/// and the jurisdictions it governs (ISO 3166 codes; a platform's rules govern everywhere).
///
/// The citations are to the public texts as enacted or published; the ledger cites them so that a
/// reader can check each rule against its source, not as legal advice.
public struct Law: Sendable, Equatable, Identifiable {
    /// A short stable id (`us-tx-sb2420`), as docs/rules.md and reports cite it.
    public let id: String
    /// The name a report prints (`Texas SB 2420 (App Store Accountability Act)`).
    public let title: String
    /// Where the text is: the statute, regulation or document, as precisely as public sources allow.
    public let citation: String
    /// The jurisdictions it governs (ISO 3166-1 or 3166-2 codes, or `EU`); empty for a platform's rules.
    public let jurisdictions: [String]
    /// When its obligations take effect (`YYYY-MM-DD`), if known.
    public let effective: String?

    /// A law from its parts.
    public init(id: String, title: String, citation: String, jurisdictions: [String], effective: String? = nil) {
        self.id = id
        self.title = title
        self.citation = citation
        self.jurisdictions = jurisdictions
        self.effective = effective
    }
}

extension Law {
    /// Texas: app stores verify age and obtain a parent's consent for minors; developers use the
    /// age category and consent signals and re-obtain consent for significant changes.
    public static let texasSB2420 = Law(
        id: "us-tx-sb2420", title: "Texas SB 2420 (App Store Accountability Act)",
        citation: "Texas SB 2420, 89th Legislature (2025); Texas Business and Commerce Code, chapter 121",
        jurisdictions: ["US-TX"], effective: "2026-01-01")
    /// Utah: the first app store accountability act, with the same duties of developers.
    public static let utahSB142 = Law(
        id: "us-ut-sb142", title: "Utah SB 142 (App Store Accountability Act)",
        citation: "Utah SB 142, 2025 General Session; Utah Code Title 13, Chapter 75",
        jurisdictions: ["US-UT"], effective: "2026-05-06")
    /// Louisiana: app store age verification and parental consent for minors.
    public static let louisianaHB570 = Law(
        id: "us-la-hb570", title: "Louisiana HB 570",
        citation: "Louisiana HB 570, 2025 Regular Session",
        jurisdictions: ["US-LA"], effective: "2026-07-01")
    /// California: operating systems provide an age bracket signal; developers must request and use it.
    public static let californiaAB1043 = Law(
        id: "us-ca-ab1043", title: "California AB 1043 (Digital Age Assurance Act)",
        citation: "California AB 1043 (2025), Civil Code, Division 3, Part 4, Title 1.81.9, sections 1798.500 and following",
        jurisdictions: ["US-CA"], effective: "2027-01-01")
    /// The US federal children's privacy law and the FTC's rule under it.
    public static let coppa = Law(
        id: "us-coppa", title: "COPPA (Children's Online Privacy Protection Act)",
        citation: "15 U.S.C. 6501-6506; FTC rule 16 CFR Part 312 (312.5 parental consent, 312.10 data retention)",
        jurisdictions: ["US"])
    /// The UK's Age Appropriate Design Code.
    public static let ukChildrensCode = Law(
        id: "gb-aadc", title: "UK Children's Code (Age Appropriate Design Code)",
        citation: "ICO, Age Appropriate Design Code, issued under Data Protection Act 2018 section 123; "
            + "standards 3 (age appropriate application) and 11 (parental controls)",
        jurisdictions: ["GB"], effective: "2021-09-02")
    /// The EU's Digital Services Act and the Commission's guidelines on protecting minors.
    public static let euDSA = Law(
        id: "eu-dsa-28", title: "EU Digital Services Act, Article 28 guidelines",
        citation: "Regulation (EU) 2022/2065, Article 28(1); Commission guidelines on measures to ensure a high level of "
            + "privacy, safety and security for minors online (July 2025)",
        jurisdictions: ["EU"])
    /// The GDPR's rule on a child's consent to an online service.
    public static let gdprArticle8 = Law(
        id: "eu-gdpr-8", title: "GDPR Article 8 (conditions for a child's consent)",
        citation: "Regulation (EU) 2016/679, Article 8(1): consent given or authorised by the holder of parental "
            + "responsibility below 16 (member states may set 13 to 16)",
        jurisdictions: ["EU"])
    /// Apple's Declared Age Range framework: what the system tells an app it must do.
    public static let appleDeclaredAgeRange = Law(
        id: "apple-declared-age-range", title: "Apple Declared Age Range",
        citation: "Apple Developer Documentation, DeclaredAgeRange: AgeRangeService.isEligibleForAgeFeatures and "
            + "requiredRegulatoryFeatures (significantAppChangeRequiresParentalConsent, "
            + "significantAppChangeRequiresAdultNotification), and the sample app's handling of significant changes",
        jurisdictions: [])
    /// Apple's PermissionKit: questions to a parent and their answers.
    public static let applePermissionKit = Law(
        id: "apple-permissionkit", title: "Apple PermissionKit",
        citation: "Apple Developer Documentation, PermissionKit: PermissionQuestion, AskCenter and PermissionResponse",
        jurisdictions: [])
    /// Apple's age-rating exceptions: a parent approving an app above the child's limit.
    public static let appleAgeRatingExceptions = Law(
        id: "apple-age-rating-exceptions", title: "Apple MarketplaceKit age-rating exceptions",
        citation: "Apple Developer Documentation, age rating exception requests and approve-in-person flows",
        jurisdictions: [])
    /// Google Play's Age Signals API.
    public static let playAgeSignals = Law(
        id: "google-play-age-signals", title: "Google Play Age Signals API",
        citation: "Google Play Console Help and Android Developers, Play Age Signals API: userStatus "
            + "(VERIFIED, SUPERVISED, SUPERVISED_APPROVAL_PENDING, SUPERVISED_APPROVAL_DENIED)",
        jurisdictions: [])

    /// Every law and platform document the rules cite, in the order docs/rules.md lists them.
    public static let all: [Law] = [
        texasSB2420, utahSB142, louisianaHB570, californiaAB1043, coppa, ukChildrensCode, euDSA, gdprArticle8,
        appleDeclaredAgeRange, applePermissionKit, appleAgeRatingExceptions, playAgeSignals,
    ]
}
