import Foundation

/// Locates the shared third-party test vectors (`shared/testdata` next to the package).
enum TestData {
    /// Thrown when the vectors cannot be found; tests must fail rather than skip.
    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The directory `sub` inside the shared test data, e.g. `directory("jcs")`.
    ///
    /// Uses `$CONSENT_LEDGER_TESTDATA` (the `testdata` directory itself) when set; otherwise walks
    /// up from this source file to the first directory `X` for which `X/../shared/testdata`
    /// exists. Throws, naming every place it looked, when neither works.
    static func directory(_ sub: String) throws -> URL {
        let environment = ProcessInfo.processInfo.environment["CONSENT_LEDGER_TESTDATA"] ?? ""
        if !environment.isEmpty {
            let root = URL(fileURLWithPath: environment, isDirectory: true)
            let url = root.appendingPathComponent(sub, isDirectory: true)
            guard isDirectory(url.path) else {
                throw NotFound(description: "CONSENT_LEDGER_TESTDATA is \(environment), but \(url.path) is not a directory")
            }
            return url
        }

        var searched: [String] = []
        var current = (#filePath as NSString).deletingLastPathComponent
        while current != "/" && !current.isEmpty {
            let parent = (current as NSString).deletingLastPathComponent
            let candidate = ((parent as NSString).appendingPathComponent("shared") as NSString)
                .appendingPathComponent("testdata")
            searched.append(candidate)
            if isDirectory(candidate) {
                let url = URL(fileURLWithPath: candidate, isDirectory: true).appendingPathComponent(sub, isDirectory: true)
                guard isDirectory(url.path) else {
                    throw NotFound(description: "found shared test data at \(candidate), but it has no \(sub) directory")
                }
                return url
            }
            current = parent
        }
        throw NotFound(description: "shared test data not found: CONSENT_LEDGER_TESTDATA is not set and none of"
            + " these exist: \(searched.joined(separator: ", "))")
    }

    /// The contents of `url` as bytes.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
