import Synchronization

/// How many things are under way per name (an API key, a log), each name held to ``limit``: the
/// one counter behind ``ReadAdmission`` (reads per key) and ``ReportAdmission`` (reports per log).
final class BoundedCounts: Sendable {
    /// The most one name may hold.
    let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    /// Counts held to `limit` per name.
    init(limit: Int) { self.limit = limit }

    /// Takes one for `name` and returns nil, or, when `name` holds ``limit`` already, takes
    /// nothing and returns how many it holds.
    func take(_ name: String) -> Int? {
        counts.withLock { counts -> Int? in
            let held = counts[name, default: 0]
            guard held < limit else { return held }
            counts[name] = held + 1
            return nil
        }
    }

    /// Gives back one taken for `name`.
    func give(_ name: String) {
        counts.withLock { counts in
            let left = counts[name, default: 1] - 1
            counts[name] = left > 0 ? left : nil
        }
    }

    /// How many `name` holds now.
    func count(of name: String) -> Int { counts.withLock { $0[name, default: 0] } }
}
