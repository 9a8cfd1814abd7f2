import Foundation

/// A law, code or platform rule a ledger rule rests on: what it is called, where it is published,
/// the jurisdictions it governs (ISO 3166 codes; a platform's rules govern everywhere), and when its
/// duties applied, with its status as the cited sources show it.
///
/// The citations are to the public texts as enacted or published; the ledger cites them so that a
/// reader can check each rule against its source, not as legal advice. A law's status changes with
/// courts and legislatures: ``statusChecked`` says when the statuses here were last checked.
public struct Law: Sendable, Equatable, Identifiable {
    /// A span of UTC days during which a law's duties applied: from `from` (included; nil: since
    /// before any event the ledger holds) to `to` (excluded; nil: still applying).
    public struct Period: Sendable, Equatable {
        /// The first day (`YYYY-MM-DD`), or nil.
        public let from: String?
        /// The day it stopped applying (`YYYY-MM-DD`, excluded), or nil.
        public let to: String?

        /// A period from its days.
        public init(from: String?, to: String? = nil) {
            self.from = from
            self.to = to
        }

        /// Always: a platform's document, or a law older than any event.
        public static let always = Period(from: nil)

        /// Whether the period overlaps the instants [`start`, `end`).
        public func overlaps(start: Date, end: Date) -> Bool {
            let first = from.flatMap(Self.midnight) ?? .distantPast, last = to.flatMap(Self.midnight) ?? .distantFuture
            return first < end && start < last
        }

        /// The period as a report prints it.
        public var json: JSONValue { ["from": from.map(JSONValue.string) ?? .null, "to": to.map(JSONValue.string) ?? .null] }

        /// 00:00 UTC of a `YYYY-MM-DD` day.
        static func midnight(_ day: String) -> Date? {
            RFC3339.epochSeconds(day + "T00:00:00Z").map { Date(timeIntervalSince1970: TimeInterval($0)) }
        }
    }

    /// When the statuses of the laws below were last checked against their sources.
    public static let statusChecked = "2026-11-28"

    /// A short stable id (`us-tx-sb2420`), as docs/rules.md and reports cite it.
    public let id: String
    /// The name a report prints (`Texas SB 2420 (App Store Accountability Act)`).
    public let title: String
    /// Where the text is: the statute, regulation or document, as precisely as public sources allow.
    public let citation: String
    /// The jurisdictions it governs (ISO 3166-1 or 3166-2 codes, or `EU`); empty for a platform's rules.
    public let jurisdictions: [String]
    /// When its duties take effect by its own terms (`YYYY-MM-DD`), if it names a day.
    public let effective: String?
    /// When its duties applied in fact (after courts and later laws), as far as ``status`` shows;
    /// empty when they never have, or when the ledger could not confirm when.
    public let inForce: [Period]
    /// Its status in a sentence or two, citing the enacted text, court orders or later laws.
    public let status: String

    /// A law from its parts.
    public init(id: String, title: String, citation: String, jurisdictions: [String], effective: String? = nil,
                inForce: [Period], status: String) {
        self.id = id
        self.title = title
        self.citation = citation
        self.jurisdictions = jurisdictions
        self.effective = effective
        self.inForce = inForce
        self.status = status
    }

    /// Whether its duties applied at some time in [`start`, `end`).
    public func applies(from start: Date, to end: Date) -> Bool {
        inForce.contains { $0.overlaps(start: start, end: end) }
    }
}

extension Law {
    /// Texas: app stores verify age and obtain a parent's consent for minors; developers use the
    /// age category and consent signals and re-obtain consent for significant changes.
    public static let texasSB2420 = Law(
        id: "us-tx-sb2420", title: "Texas SB 2420 (App Store Accountability Act)",
        citation: "Texas SB 2420, 89th Legislature (2025); Texas Business and Commerce Code, chapter 121",
        jurisdictions: ["US-TX"], effective: "2026-01-01", inForce: [Period(from: "2026-05-28")],
        status: "Enacted 2025 (effective 2026-01-01 by its terms). The US District Court for the Western District of Texas "
            + "enjoined its enforcement on 2025-12-23 (CCIA v. Paxton, 1:25-cv-01660; SEAT v. Paxton), before it took effect; "
            + "the Fifth Circuit stayed the injunctions on 2026-05-28 (stay pending appeal, 2026-06-04), so it is enforceable "
            + "while the appeal proceeds. Not in force 2026-01-01 to 2026-05-27.")
    /// Utah: the first app store accountability act, with the same duties of developers, postponed
    /// to 2027 by its amendment of 2026.
    public static let utahSB142 = Law(
        id: "us-ut-sb142", title: "Utah SB 142 (App Store Accountability Act)",
        citation: "Utah SB 142, 2025 General Session (Laws of Utah 2025, chapter 446), amended by HB 498, 2026 General Session; "
            + "Utah Code 13-76-201 (app stores) and 13-76-202 (developers), each \"beginning May 6, 2027\" as amended",
        jurisdictions: ["US-UT"], effective: "2027-05-06", inForce: [Period(from: "2027-05-06")],
        status: "Enacted 2025 to apply from 2026-05-06; HB 498 (2026 General Session) postponed the duties of app stores and "
            + "developers to 2027-05-06 and left enforcement to a private right of action, after which the challenge to the act "
            + "was dismissed (2026-04-21). Not in force before 2027-05-06.")
    /// Louisiana: app store age verification and parental consent for minors, as first enacted.
    public static let louisianaHB570 = Law(
        id: "us-la-hb570", title: "Louisiana HB 570 (Act 481 of 2025)",
        citation: "Louisiana HB 570, 2025 Regular Session, Act No. 481 (R.S. 51:1771 and following as then enacted)",
        jurisdictions: ["US-LA"], effective: "2026-07-01", inForce: [],
        status: "Enacted 2025 to take effect 2026-07-01; Act No. 185 of the 2026 Regular Session (HB 977), section 1, provides "
            + "that Act 481 shall not become effective, and enacts R.S. 51:1771 to 1775 anew. Never in force.")
    /// Louisiana: the act that replaced HB 570 before it took effect.
    public static let louisianaHB977 = Law(
        id: "us-la-hb977", title: "Louisiana HB 977 (Act 185 of 2026)",
        citation: "Louisiana HB 977, 2026 Regular Session, Act No. 185: R.S. 51:1771 to 1775 (Part II of Chapter 20-A of Title 51, "
            + "protection of children on applications)",
        jurisdictions: ["US-LA"], effective: "2027-07-01", inForce: [Period(from: "2027-07-01")],
        status: "Signed 2026-05-15 in place of HB 570; R.S. 51:1771 to 1775 apply from 2027-07-01 (as reported by counsel, "
            + "Alston & Bird, \"Louisiana delays App Store Accountability Act effective date to July 2027\"). Not in force before.")
    /// California: operating systems provide an age bracket signal; developers must request and use it.
    public static let californiaAB1043 = Law(
        id: "us-ca-ab1043", title: "California AB 1043 (Digital Age Assurance Act)",
        citation: "California AB 1043 (2025), Civil Code, Division 3, Part 4, Title 1.81.9, sections 1798.500 and following",
        jurisdictions: ["US-CA"], effective: "2027-01-01", inForce: [Period(from: "2027-01-01")],
        status: "Enacted 2025 (chaptered October 2025); operative 2027-01-01.")
    /// The US federal children's privacy law and the FTC's rule under it.
    public static let coppa = Law(
        id: "us-coppa", title: "COPPA (Children's Online Privacy Protection Act)",
        citation: "15 U.S.C. 6501-6506; FTC rule 16 CFR Part 312 (312.5 parental consent, 312.10 data retention)",
        jurisdictions: ["US"], effective: "2000-04-21", inForce: [.always],
        status: "In force since 2000-04-21; the FTC's amendments of 2025 took effect 2025-06-23, with compliance required from 2026-04-22.")
    /// The UK's Age Appropriate Design Code.
    public static let ukChildrensCode = Law(
        id: "gb-aadc", title: "UK Children's Code (Age Appropriate Design Code)",
        citation: "ICO, Age Appropriate Design Code, issued under Data Protection Act 2018 section 123; "
            + "standards 3 (age appropriate application) and 11 (parental controls)",
        jurisdictions: ["GB"], effective: "2021-09-02", inForce: [Period(from: "2021-09-02")],
        status: "In force since 2020-09-02, with conformance expected from 2021-09-02 after its transition year.")
    /// The EU's Digital Services Act and the Commission's guidelines on protecting minors.
    public static let euDSA = Law(
        id: "eu-dsa-28", title: "EU Digital Services Act, Article 28 guidelines",
        citation: "Regulation (EU) 2022/2065, Article 28(1); Commission guidelines on measures to ensure a high level of "
            + "privacy, safety and security for minors online (July 2025)",
        jurisdictions: ["EU"], effective: "2024-02-17", inForce: [Period(from: "2024-02-17")],
        status: "Article 28 applies since 2024-02-17; the Commission adopted its guidelines on 2025-07-14.")
    /// The GDPR's rule on a child's consent to an online service.
    public static let gdprArticle8 = Law(
        id: "eu-gdpr-8", title: "GDPR Article 8 (conditions for a child's consent)",
        citation: "Regulation (EU) 2016/679, Article 8(1): consent given or authorised by the holder of parental "
            + "responsibility below 16 (member states may set 13 to 16)",
        jurisdictions: ["EU"], effective: "2018-05-25", inForce: [.always],
        status: "Applies since 2018-05-25.")
    /// Apple's Declared Age Range framework: what the system tells an app it must do.
    public static let appleDeclaredAgeRange = Law(
        id: "apple-declared-age-range", title: "Apple Declared Age Range",
        citation: "Apple Developer Documentation, DeclaredAgeRange: AgeRangeService.isEligibleForAgeFeatures and "
            + "requiredRegulatoryFeatures (significantAppChangeRequiresParentalConsent, "
            + "significantAppChangeRequiresAdultNotification), and the sample app's handling of significant changes",
        jurisdictions: [], inForce: [.always], status: "A platform document: it applies as published.")
    /// Apple's PermissionKit: questions to a parent and their answers.
    public static let applePermissionKit = Law(
        id: "apple-permissionkit", title: "Apple PermissionKit",
        citation: "Apple Developer Documentation, PermissionKit: PermissionQuestion, AskCenter and PermissionResponse",
        jurisdictions: [], inForce: [.always], status: "A platform document: it applies as published.")
    /// Apple's age-rating exceptions: a parent approving an app above the child's limit.
    public static let appleAgeRatingExceptions = Law(
        id: "apple-age-rating-exceptions", title: "Apple MarketplaceKit age-rating exceptions",
        citation: "Apple Developer Documentation, age rating exception requests and approve-in-person flows",
        jurisdictions: [], inForce: [.always], status: "A platform document: it applies as published.")
    /// App Store Server Notifications V2: what the App Store tells an app's server.
    public static let appleServerNotifications = Law(
        id: "apple-server-notifications", title: "Apple App Store Server Notifications V2",
        citation: "Apple Developer Documentation, App Store Server Notifications V2: notificationType RESCIND_CONSENT, "
            + "data.environment, and the signed payload (JWS) the server verifies",
        jurisdictions: [], inForce: [.always], status: "A platform document: it applies as published.")
    /// Google Play's Age Signals API.
    public static let playAgeSignals = Law(
        id: "google-play-age-signals", title: "Google Play Age Signals API",
        citation: "Google Play Console Help and Android Developers, Play Age Signals API: userStatus "
            + "(VERIFIED, SUPERVISED, SUPERVISED_APPROVAL_PENDING, SUPERVISED_APPROVAL_DENIED)",
        jurisdictions: [], inForce: [.always], status: "A platform document: it applies as published.")

    /// Every law and platform document the rules cite, in the order docs/rules.md lists them.
    public static let all: [Law] = [
        texasSB2420, utahSB142, louisianaHB570, louisianaHB977, californiaAB1043, coppa, ukChildrensCode, euDSA, gdprArticle8,
        appleDeclaredAgeRange, applePermissionKit, appleAgeRatingExceptions, appleServerNotifications, playAgeSignals,
    ]
}
