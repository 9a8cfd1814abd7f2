import Foundation
import LedgerFuzzTargets
import Testing

/// Every input of the fuzzing corpus (`Tests/Fixtures/fuzz/<target>/`: the seeds, and every input
/// libFuzzer found that crashed a target once, kept as a regression) run through its target
/// without the sanitizers: none may crash or break its target's round trip (FuzzTarget's
/// preconditions stop the test process, which fails the run).
@Suite("Fuzzing corpus: every kept input, through its target")
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()   // Tests
        .appendingPathComponent("Fixtures/fuzz", isDirectory: true)

    @Test("every target has a corpus folder with inputs, and every input runs", arguments: FuzzTarget.allCases)
    func corpus(target: FuzzTarget) throws {
        let folder = Self.corpus.appendingPathComponent(target.rawValue, isDirectory: true)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
        #expect(!files.isEmpty, "\(folder.path) holds no input")
        for file in files {
            target.run([UInt8](try Data(contentsOf: file)))
        }
    }
}
