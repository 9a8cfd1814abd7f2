import LedgerCore
/// A realistic, reproducible history of age-assurance and parental-consent events, as the NDJSON
/// lines apps would send (`consent-ledger simulate`, `demo`, the tests and the benchmarks).
///
/// Families live in the US states with app-store laws (Texas, Utah, Louisiana, California from
/// 2027) and elsewhere (New York, GB, EU, DE, FR, AU), on Apple devices or (about a fifth) on
/// Android. Each has one or two adults, verified or not, and zero to three children in every age
/// band. They use a handful of apps with their own age gates; the apps check eligibility and ask
/// for age ranges (download, launch, account creation, back-fill, yearly re-check, purchase),
/// ship significant changes that parents approve, deny, let expire or never answer, open and
/// close features on that basis, and children ask for age-rating exceptions that guardians
/// approve by message or in person or decline. Consent is rescinded through the App Store now and
/// then, Android families report Play Age Signals, operators write decisions, and a few anomalies
/// are made on purpose: a feature opened to a minor with no approval on record, an answer after
/// its question expired, an exception decided twice, and the other breaches of docs/rules.md.
///
/// Every line passes ``EventInput/init(line:)``. Lines come in the order the ledger receives
/// them, which is `occurredAt` order (RFC 3339 UTC, whole seconds, from `start` up to `days`
/// later), so appending them in order gives a sensible log; within one subject, question or
/// exception, causes come before their effects. The exceptions are the deliberate device-clock
/// faults (``deviceClockFaults``, on by default, about one event in a thousand): a guardian's
/// device whose clock is behind (an answer that occurred before its question, an acknowledgment
/// before its change was declared), a child's device that was offline (an exception request
/// delivered after the guardian's decision), and a device whose clock is years ahead. Only the
/// faulted events' times differ from the history without faults; they come from a random
/// sequence of their own, so turning them off changes nothing else. Subjects,
/// guardians and operators are pseudonyms (`p_`, `g_`, `op_` and 32 hex digits), never names;
/// the ages behind the ranges are never written.
///
/// Volume: about 0.46 events per family per day (``eventsPerFamilyDay``, some 14 a month) once
/// the members have set up their apps, plus about 17.5 per family for those first checks
/// (``setUpEventsPerFamily``), most in the first week. A 30-day history has about 28 events per
/// family (0.93 per family-day), a year about 185 (0.5 per family-day); ``estimatedEvents`` gives
/// the expected count. The apps' change declarations add one or two events a week.
///
/// Determinism: the history is a function of the parameters alone, with no system randomness and
/// no clock. The same `families`, `days`, `seed`, `log` and `start` give the same bytes; another
/// seed gives another history. `log` changes only the ids (event, question and exception ids):
/// the same story written into another log gets ids of its own. A family's story depends on the
/// seed and its index, not on how many families there are, and a shorter history is a prefix of
/// a longer one.
///
/// ```swift
/// let simulator = try HistorySimulator(families: 100, days: 30, seed: 42)
/// for line in simulator.lines() { print(line) }
/// ```
public struct HistorySimulator: Sendable {
    /// How many families.
    public let families: Int
    /// How many days, from ``start``.
    public let days: Int
    /// The seed every random choice derives from.
    public let seed: UInt64
    /// The log the history is meant for; it seeds the ids.
    public let log: String
    /// The first instant, `YYYY-MM-DDTHH:MM:SSZ`.
    public let start: String
    /// Whether a few devices report wrong times on purpose (see the type's description), so the
    /// rules that judge event times have cases; off, every line comes in `occurredAt` order.
    public let deviceClockFaults: Bool

    /// The default first instant.
    public static let defaultStart = "2026-09-01T00:00:00Z"
    /// The most days one history may span (ten years).
    public static let maxDays = 3_650
    /// The most families one history may hold.
    public static let maxFamilies = 10_000_000

    /// Events per family per day once its members have set up their apps, on average (measured
    /// over seeds 1 to 3 with 200 families between 30 and 365 days): about 14 a month.
    public static let eventsPerFamilyDay = 0.46
    /// Events per family for the first checks of its apps, on average: three quarters of the
    /// apps were installed before the history starts and are checked in its first week, the
    /// rest are installed over its first four months.
    public static let setUpEventsPerFamily = 17.5

    let startInstant: Int64
    let endInstant: Int64
    let idSeed: UInt64

    /// A simulation of `families` families over `days` days from `start`.
    ///
    /// - Throws: ``LedgerError`` `invalid-request` when `families` is not 1 to ``maxFamilies``,
    ///   `days` is not 1 to ``maxDays``, or `start` is not of the form `YYYY-MM-DDTHH:MM:SSZ`.
    public init(families: Int, days: Int, seed: UInt64, log: String = "sim", start: String = defaultStart,
                deviceClockFaults: Bool = true) throws(LedgerError) {
        guard (1...Self.maxFamilies).contains(families) else {
            throw LedgerError(.invalidRequest, "families must be 1 to \(Self.maxFamilies), not \(families)", field: "families")
        }
        guard (1...Self.maxDays).contains(days) else {
            throw LedgerError(.invalidRequest, "days must be 1 to \(Self.maxDays), not \(days)", field: "days")
        }
        guard let startInstant = SimulationClock.parse(start), startInstant >= 0 else {
            throw LedgerError(.invalidRequest, "start must be a UTC instant such as \(Self.defaultStart)", field: "start",
                              hint: "Write the start as YYYY-MM-DDTHH:MM:SSZ.")
        }
        self.families = families
        self.days = days
        self.seed = seed
        self.log = log
        self.start = start
        self.deviceClockFaults = deviceClockFaults
        self.startInstant = startInstant
        endInstant = startInstant + Int64(days) * SimulationClock.day
        idSeed = seed ^ SimulationRandom.mix(SimulationRandom.label(log))
    }

    /// The instant the history stops (exclusive): ``start`` plus ``days`` days.
    public var end: String { SimulationClock.timestamp(endInstant) }

    /// The NDJSON lines, one event each, in the order the ledger receives them; produced lazily,
    /// a day at a time.
    public func lines() -> HistoryLines { HistoryLines(simulator: self) }

    /// Calls `body` with every line in order, without holding the history in memory.
    public func forEach(_ body: (String) throws -> Void) rethrows {
        for line in lines() { try body(line) }
    }

    /// About how many events ``lines()`` gives: ``eventsPerFamilyDay`` per family-day, plus
    /// ``setUpEventsPerFamily`` per family for the first checks, as far as the history reaches
    /// them (three quarters in the first week, a quarter over the first 120 days). Within about
    /// 15% of the real count for 100 families or more.
    public var estimatedEvents: Int {
        let d = Double(days)
        let setUp = Self.setUpEventsPerFamily * (0.75 * Swift.min(d, 7) / 7 + 0.25 * Swift.min(d, 120) / 120)
        return Int((Double(families) * (setUp + Self.eventsPerFamilyDay * d)).rounded())
    }
}
