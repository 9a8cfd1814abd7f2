import Foundation
import LedgerCore

/// Where the embedded database is, found the same way from any folder of a project.
///
/// Like git's `.git`, a project's embedded database is marked by a `.consent-ledger` folder: a
/// command run in the project's folder or any folder below it walks up from the current folder to
/// the first `.consent-ledger` it finds and uses that one. `--data-dir` (or `CONSENT_LEDGER_HOME`)
/// names the folder directly. Only the commands that set a ledger up (`demo`, `migrate`,
/// `db start`) may create a new cluster, and they say where; every other command refuses, naming
/// where it looked, instead of silently creating a second, empty one (decision 0019).
///
/// ```swift
/// let location = try ClusterLocation.resolve(explicit: nil, from: URL(fileURLWithPath: "."), creating: false)
/// if let note = location.note { print(note) }   // "using the embedded database in /home/me/app/.consent-ledger"
/// ```
public struct ClusterLocation: Sendable {
    /// The name of the folder that marks a project's embedded database.
    public static let folderName = ".consent-ledger"

    /// The project's `.consent-ledger` folder (or the `--data-dir` folder): the signing key's
    /// default place, and the cluster's unless the root fallback applies (see ``LocalCluster/forProject(folder:)``).
    public let folder: URL
    /// The cluster.
    public let cluster: LocalCluster
    /// A line for standard error when the location would surprise: found in a folder above the
    /// current one, about to be created, or moved elsewhere for the `postgres` user.
    public let note: String?

    /// Finds the embedded database.
    ///
    /// - Parameters:
    ///   - explicit: `--data-dir` or `CONSENT_LEDGER_HOME`, when given.
    ///   - start: the current folder.
    ///   - creating: whether this command may create a cluster that does not exist yet.
    /// - Throws: `cluster-failure` when no cluster exists and `creating` is false, naming where it
    ///   looked and the commands that create one.
    public static func resolve(explicit: String?, from start: URL, creating: Bool) throws(LedgerError) -> ClusterLocation {
        let start = start.standardizedFileURL
        if let explicit, !explicit.isEmpty {
            let folder = URL(fileURLWithPath: explicit, relativeTo: start).standardizedFileURL
            return try use(folder, creating: creating, foundAbove: false,
                           missing: "there is no embedded database in \(folder.path) (--data-dir or CONSENT_LEDGER_HOME)",
                           hint: "Create one there with `consent-ledger migrate --data-dir \(folder.path)` (an empty ledger) or `consent-ledger demo --data-dir \(folder.path)` (a sample one), or check the folder's name.")
        }
        if let marker = nearestMarker(from: start) {
            let project = marker.deletingLastPathComponent()
            return try use(marker, creating: creating, foundAbove: project.path != start.path,
                           missing: "\(marker.path) holds no embedded database yet",
                           hint: "Create it with `consent-ledger migrate` (an empty ledger) or `consent-ledger demo` (a sample one) in \(project.path).")
        }
        // None above: the commands that create one create it here, in the current folder. (A cluster
        // that root's fallback put under /var/tmp for this folder, from before the marker folder
        // existed, is found the same way and gets its marker.)
        let here = start.appendingPathComponent(folderName, isDirectory: true)
        return try use(here, creating: creating, foundAbove: false,
                       missing: "no embedded database found: there is no \(folderName) folder in \(start.path) or any folder above it",
                       hint: "Run this in your project's folder (or one below it); or create a ledger here with `consent-ledger migrate` "
                           + "(empty) or `consent-ledger demo` (a sample); or name one with --data-dir, or your own server with --database-url.")
    }

    /// The first `.consent-ledger` folder in `start` or a folder above it, or nil.
    public static func nearestMarker(from start: URL) -> URL? {
        var current = start.standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(folderName, isDirectory: true)
            if isDirectory(candidate.path) { return candidate }
            let parent = current.deletingLastPathComponent().standardizedFileURL
            if parent.path == current.path { return nil }
            current = parent
        }
    }

    /// The cluster marked by `folder`, created by this command only when `creating`.
    private static func use(_ folder: URL, creating: Bool, foundAbove: Bool, missing: String, hint: String) throws(LedgerError) -> ClusterLocation {
        let (cluster, fallbackNote) = LocalCluster.forProject(folder: folder)
        if try cluster.status() != .notCreated {
            if !isDirectory(folder.path) { try makeFolder(folder) }
            let note = foundAbove ? "using the embedded database in \(folder.path)" : nil
            return ClusterLocation(folder: folder, cluster: cluster, note: note)
        }
        guard creating else { throw LedgerError(.clusterFailure, missing, hint: hint) }
        try makeFolder(folder)
        return ClusterLocation(folder: folder, cluster: cluster,
                               note: "creating a new embedded database in \(cluster.directory.path)" + (fallbackNote.map { " (\($0))" } ?? ""))
    }

    private static func makeFolder(_ folder: URL) throws(LedgerError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw LedgerError(.clusterFailure, "cannot create \(folder.path): \(error.localizedDescription)",
                              hint: "Choose a writable folder with --data-dir or CONSENT_LEDGER_HOME.")
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
