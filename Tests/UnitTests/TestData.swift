import Foundation

/// Locates the third-party test vectors kept in the repository under `Tests/Fixtures/third-party`
/// (see the README there for each set's source, commit and licence).
enum TestData {
    /// Thrown when the vectors cannot be found; tests must fail rather than skip.
    struct NotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository's `Tests/Fixtures/third-party` folder, found from this source file's path
    /// (`Tests/UnitTests/TestData.swift`), so it does not depend on the current folder.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // UnitTests
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Fixtures/third-party", isDirectory: true)

    /// The directory `sub` inside the vendored test data, e.g. `directory("jcs")`.
    /// - Throws: `NotFound` naming the path it expected.
    static func directory(_ sub: String) throws -> URL {
        let url = root.appendingPathComponent(sub, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw NotFound(description: "the vendored test vectors \(url.path) are missing; they are part of the repository (Tests/Fixtures/third-party)")
        }
        return url
    }

    /// The contents of `url` as bytes.
    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }
}
