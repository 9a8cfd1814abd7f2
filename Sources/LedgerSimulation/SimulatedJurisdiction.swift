import LedgerCore
/// Where a simulated family lives, and what DeclaredAgeRange reports there: whether age features
/// apply, which regulatory features are required, and from when (the dates of docs/design/events.md's "Laws
/// that read these records").
struct SimulatedJurisdiction {
    /// The envelope's code: `US-TX`, `GB`, `EU`, ….
    let code: String
    /// When the state's app-store age law took effect (DeclaredAgeRange's regulatory features
    /// from then on); nil where no such law applies.
    let effective: Int64?
    /// Whether minors' significant app changes need a parent's approval (and adults are notified).
    let consentForChanges: Bool
    /// The local clock's offset from UTC in whole hours (summer time), so that people act in
    /// their own daytime.
    let utcOffset: Int

    /// The jurisdictions families are drawn from, with their weights.
    static let all: [(SimulatedJurisdiction, Int)] = [
        (law("US-TX", since: (2026, 5, 28), offset: -5), 24),
        (law("US-UT", since: (2026, 5, 6), offset: -6), 14),
        (law("US-LA", since: (2026, 7, 1), offset: -5), 6),
        (SimulatedJurisdiction(code: "US-CA", effective: SimulationClock.seconds(year: 2027, month: 1, day: 1),
                               consentForChanges: false, utcOffset: -7), 18),
        (elsewhere("US-NY", offset: -4), 6),
        // Where the age of majority is above 18 (AgeOfMajority): 19 in Alabama, 21 in Mississippi.
        (elsewhere("US-AL", offset: -5), 2),
        (elsewhere("US-MS", offset: -5), 3),
        (elsewhere("GB", offset: 1), 12),
        (elsewhere("EU", offset: 1), 8),
        (elsewhere("DE", offset: 2), 5),
        (elsewhere("FR", offset: 2), 4),
        (elsewhere("AU", offset: 10), 3),
    ]

    /// A state whose app-store law requires parental consent for minors' significant changes.
    private static func law(_ code: String, since date: (Int64, Int64, Int64), offset: Int) -> SimulatedJurisdiction {
        SimulatedJurisdiction(code: code, effective: SimulationClock.seconds(year: date.0, month: date.1, day: date.2),
                              consentForChanges: true, utcOffset: offset)
    }

    /// A place without an app-store age law.
    private static func elsewhere(_ code: String, offset: Int) -> SimulatedJurisdiction {
        SimulatedJurisdiction(code: code, effective: nil, consentForChanges: false, utcOffset: offset)
    }

    /// Whether the state's law is in force at `instant`.
    func inForce(at instant: Int64) -> Bool {
        guard let effective else { return false }
        return instant >= effective
    }

    /// Whether adults must be told of significant changes at `instant`.
    func requiresAdultNotification(at instant: Int64) -> Bool { consentForChanges && inForce(at: instant) }

    /// The regulatory features DeclaredAgeRange reports as required at `instant` (empty: the
    /// account is not eligible for age features).
    func requiredFeatures(at instant: Int64) -> [String] {
        guard inForce(at: instant) else { return [] }
        if consentForChanges {
            return ["declaredAgeRangeRequired", "significantAppChangeRequiresParentalConsent",
                    "significantAppChangeRequiresAdultNotification"]
        }
        return ["declaredAgeRangeRequired"]
    }

    /// Whether Google Play's Age Signals return a range here (elsewhere: `UNKNOWN`).
    func playSignalsApply(at instant: Int64) -> Bool { inForce(at: instant) }
}
