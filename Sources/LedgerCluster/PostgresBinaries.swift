import Foundation
import LedgerCore

/// Where PostgreSQL's server programs (`initdb`, `pg_ctl`) are on this machine.
///
/// Looked for in `$CONSENT_LEDGER_PG_BIN`, then on `PATH`, then in the usual package folders
/// (Debian's `/usr/lib/postgresql/<version>/bin`, the newest first; Homebrew; `/usr/local/pgsql`).
public struct PostgresBinaries: Sendable {
    /// The folder that holds `initdb` and `pg_ctl`.
    public let directory: String

    /// `directory/initdb`.
    public var initdb: String { directory + "/initdb" }
    /// `directory/pg_ctl`.
    public var pgCtl: String { directory + "/pg_ctl" }

    /// Finds the programs, or explains how to install them.
    public static func locate() throws(LedgerError) -> PostgresBinaries {
        let fm = FileManager.default
        var candidates: [String] = []
        if let override = ProcessInfo.processInfo.environment["CONSENT_LEDGER_PG_BIN"] { candidates.append(override) }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") { candidates.append(String(dir)) }
        if let versions = try? fm.contentsOfDirectory(atPath: "/usr/lib/postgresql") {
            let sorted = versions.compactMap { Int($0) }.sorted(by: >)
            candidates += sorted.map { "/usr/lib/postgresql/\($0)/bin" }
        }
        candidates += ["/opt/homebrew/bin", "/usr/local/bin", "/usr/local/pgsql/bin", "/usr/pgsql/bin"]
        for dir in candidates where fm.isExecutableFile(atPath: dir + "/initdb") && fm.isExecutableFile(atPath: dir + "/pg_ctl") {
            return PostgresBinaries(directory: dir)
        }
        throw LedgerError(
            .postgresNotInstalled,
            "PostgreSQL's server programs (initdb, pg_ctl) were not found, so the embedded database cannot start",
            hint: "Install PostgreSQL 15 or later (Debian/Ubuntu: apt-get install postgresql; "
                + "Fedora: dnf install postgresql-server; macOS: brew install postgresql@16), "
                + "or set CONSENT_LEDGER_PG_BIN to the folder holding initdb, "
                + "or use a server you run yourself with --database-url / DATABASE_URL."
        )
    }
}
