import LedgerCore
/// A gate on one feature of one app for one person.
struct SimulatedGate {
    /// Whether the feature is open.
    var open: Bool
    /// When the gate was last applied.
    var at: Int64
    /// Whether it was opened on a parent's consent (so a rescission closes it).
    var byConsent: Bool
}

/// What an app last learned of a person's age: the `AgeRangeShared` (or Play signal) event and
/// the facts the app acts on.
struct KnownRange {
    /// The event's id (cited as the basis of gates).
    var eventId: String
    /// When it was reported.
    var at: Int64
    /// Whether the range is 18 or over.
    var adult: Bool
    /// Whether a parent must approve significant changes (`significantAppChangeApprovalRequired`,
    /// or a supervised Play account in a state with an app-store law).
    var approvalRequired: Bool
}

/// One app as one person uses it.
struct MemberApp {
    /// The app's index in ``AppTemplate/catalogue``.
    let app: Int
    /// The day the person first opens it in the simulation.
    let startDay: Int
    /// Whether it was installed before the simulation began (its first check is a back-fill).
    let existing: Bool
    /// The version installed.
    var version: String
    /// `AppTransaction.originalAppVersion`.
    var originalVersion: String
    /// The App Store `appTransactionId`.
    let transactionId: String
    /// The Google Play `installId`.
    let installId: String
    /// The day of the yearly age re-check (days since the start, modulo 365).
    let anniversaryDay: Int
    /// What the app knows of the age; nil until a range was shared.
    var known: KnownRange?
    /// The day to ask again after a decline or failure.
    var retryDay: Int?
    /// How many of the app's changes the person has handled (updated past).
    var handledChanges = 0
    /// The gates, by feature.
    var gates: [String: SimulatedGate] = [:]
    /// Until when a question flow is in progress.
    var busyUntil: Int64 = .min
    /// When a parent last approved a change on Play.
    var lastPlayApproval: Int64?
}

/// A member of a family. The age is the simulator's private truth, used to compute the ranges
/// the platforms report; it never appears in an event.
struct SimulatedPerson {
    /// The subject pseudonym (`p_…`).
    let subject: String
    /// The guardian pseudonym (`g_…`), for adults.
    let guardian: String?
    /// The age in years (never written out).
    var age: Int
    /// The day of the year (counted from the simulation's start) on which the age goes up.
    let birthdayDay: Int
    /// For an adult whose age was checked: the declaration (`confirmed`, …); nil: self-declared.
    let verification: String?
    /// `iOS`, `iPadOS` or `android`.
    let platform: String
    /// The operating system's version.
    let osVersion: String
    /// Whether a parent turned on significant-change approval (`significantAppChangeApprovalRequired`).
    let approvalControl: Bool
    /// Whether communication limits are on (`communicationLimits`).
    let communicationLimits: Bool
    /// The apps used.
    var apps: [MemberApp]
    /// Until when an age-rating exception is in progress.
    var exceptionBusyUntil: Int64 = .min
    /// Whether the marketplace has read the device's rating limit.
    var ratingLimitKnown = false
    /// The person's newest event, for operator decisions to cite.
    var lastEvent: (id: String, at: Int64)?

    /// Whether the person is under 18.
    var isMinor: Bool { age < 18 }
}

/// A simulated household: one or two adults and zero to three children, in one jurisdiction, on
/// Apple devices or on Android. Its random sequences derive from the seed and its index only, so
/// a family's history does not depend on how many families are simulated.
struct SimulatedFamily {
    /// Its index.
    let index: Int
    /// Where it lives.
    let jurisdiction: SimulatedJurisdiction
    /// `asserted` or `storefront`.
    let jurisdictionBasis: String
    /// Whether it uses Android (Play Age Signals) rather than Apple devices.
    let android: Bool
    /// Its members, adults first.
    var people: [SimulatedPerson]
    /// The story's random sequence.
    var random: SimulationRandom
    /// The sequence event ids, question ids and exception ids come from.
    var ids: SimulationRandom
    /// The sequence the deliberate device-clock faults come from: drawn from whether or not
    /// ``clockFaults`` is on, so that turning them off changes only the faulted events' times.
    var clocks: SimulationRandom
    /// The sequence an app's own age checks come from (``fallBackToOwnAgeCheck(person:app:signal:at:)``):
    /// their decisions, times and event ids, so that adding them moved no other event's random draws.
    var ageChecks: SimulationRandom
    /// Whether devices report wrong times now and then (``HistorySimulator/deviceClockFaults``).
    let clockFaults: Bool
    /// Events decided but not yet due.
    var queue = EventQueue()
    /// Scheduling order.
    var sequence: UInt64 = 0
    /// The instant the simulation stops: events from then on are not reported.
    let end: Int64

    /// The family `index` of `seed`; `idSeed` names its id sequence.
    init(index: Int, seed: UInt64, idSeed: UInt64, end: Int64, clockFaults: Bool) {
        self.index = index
        self.end = end
        self.clockFaults = clockFaults
        var random = SimulationRandom(seed: seed, 0xFA, UInt64(index))
        ids = SimulationRandom(seed: idSeed, 0xFA, UInt64(index))
        clocks = SimulationRandom(seed: seed, 0xC1, UInt64(index))
        ageChecks = SimulationRandom(seed: seed, 0xA6, UInt64(index))
        jurisdiction = random.weighted(SimulatedJurisdiction.all)
        jurisdictionBasis = random.chance(0.7) ? "asserted" : "storefront"
        android = random.chance(0.22)
        let adults = random.chance(0.3) ? 1 : 2
        let children = random.weighted([(0, 15), (1, 35), (2, 35), (3, 15)])
        var people: [SimulatedPerson] = []
        for _ in 0..<adults {
            people.append(Self.person(age: random.int(24...58), android: android, jurisdiction: jurisdiction, random: &random))
        }
        for _ in 0..<children {
            // Some grown children still live at home: 18 to 20, minors where the age of majority is higher.
            let band = random.weighted([(4...12, 45), (13...15, 30), (16...17, 25), (18...20, 6)])
            people.append(Self.person(age: random.int(band), android: android, jurisdiction: jurisdiction, random: &random))
        }
        self.people = people
        self.random = random
    }

    private static func person(age: Int, android: Bool, jurisdiction: SimulatedJurisdiction,
                               random: inout SimulationRandom) -> SimulatedPerson {
        let subject = random.pseudonym(.subject)
        let adult = age >= 18
        let guardian = adult ? random.pseudonym(.guardian) : nil
        let verification: String? = adult && random.chance(0.45)
            ? random.weighted([("confirmed", 60), ("governmentIDChecked", 20), ("paymentChecked", 20)]) : nil
        let platform = android ? "android" : (!adult && random.chance(0.3) ? "iPadOS" : "iOS")
        let osVersion = android ? random.weighted([("16", 60), ("15", 30), ("14", 10)])
            : random.weighted([("26.1", 45), ("26.0.1", 25), ("26.2", 30)])
        // In a state with an app-store law the platform requires approval of changes for every
        // minor; elsewhere some parents turn it on themselves.
        let approvalControl = !adult && (jurisdiction.consentForChanges || random.chance(age < 13 ? 0.4 : 0.2))
        let communicationLimits = !adult && random.chance(age < 13 ? 0.7 : age < 16 ? 0.4 : 0.15)
        var apps: [MemberApp] = []
        for (index, template) in AppTemplate.catalogue.enumerated()
        where template.ages.contains(age) && (!android || template.onAndroid) && random.chance(template.popularity) {
            let existing = random.chance(0.75)
            let version = "\(template.version.major).\(template.version.minor).0"
            let original = existing ? "\(max(1, template.version.major - random.int(0...2))).\(random.int(0...9)).0" : version
            apps.append(MemberApp(
                app: index, startDay: existing ? random.int(0...6) : random.int(0...120), existing: existing,
                version: version, originalVersion: original, transactionId: random.appTransactionId(),
                installId: random.installId(), anniversaryDay: random.int(0...364)))
        }
        return SimulatedPerson(subject: subject, guardian: guardian, age: age, birthdayDay: random.int(0...364),
                               verification: verification, platform: platform, osVersion: osVersion,
                               approvalControl: approvalControl, communicationLimits: communicationLimits, apps: apps)
    }

    /// The guardians' pseudonyms.
    var guardians: [String] { people.compactMap(\.guardian) }
}
