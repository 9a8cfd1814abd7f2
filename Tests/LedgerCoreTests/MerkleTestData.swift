import Foundation

/// Finds the shared third-party test vectors for the Merkle tests.
///
/// The testdata directory is `$CONSENT_LEDGER_TESTDATA` when that is set, else
/// `X/../shared/testdata` for the nearest ancestor `X` of this source file for
/// which that directory exists. Not finding it throws: a test must fail, never skip.
enum MerkleTestData {
    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The subdirectory `sub` (for example `"rfc9162"`) of the testdata directory.
    static func directory(_ sub: String, filePath: String = #filePath) throws -> URL {
        let root = try testdataRoot(filePath: filePath)
        let url = root.appendingPathComponent(sub, isDirectory: true)
        guard isDirectory(url) else {
            throw NotFound(description: "test data directory \(url.path) does not exist")
        }
        return url
    }

    private static func testdataRoot(filePath: String) throws -> URL {
        if let env = ProcessInfo.processInfo.environment["CONSENT_LEDGER_TESTDATA"], !env.isEmpty {
            let url = URL(fileURLWithPath: env, isDirectory: true)
            guard isDirectory(url) else {
                throw NotFound(description: "CONSENT_LEDGER_TESTDATA=\(env) is not a directory")
            }
            return url
        }
        // Ancestors X of this file, nearest first; look for X/../shared/testdata.
        let components = URL(fileURLWithPath: filePath).standardizedFileURL.pathComponents
        for end in stride(from: components.count - 1, through: 1, by: -1) {
            let parentOfX = components.prefix(max(end - 1, 1))
            let candidate = URL(fileURLWithPath: NSString.path(withComponents: Array(parentOfX) + ["shared", "testdata"]),
                                isDirectory: true)
            if isDirectory(candidate) {
                return candidate
            }
        }
        throw NotFound(description: "no shared/testdata found beside any ancestor of \(filePath); set CONSENT_LEDGER_TESTDATA")
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }
}
