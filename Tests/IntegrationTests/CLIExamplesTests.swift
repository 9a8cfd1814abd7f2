import Foundation
import Testing

/// The EXAMPLES that `--help` prints (issue 39: examples that drift fail CI): each is run against a
/// database that is not there, so it stops at the connection, past the argument parser: an option
/// misspelt or removed would be refused with the usage text instead.
@Suite("Command-line examples")
struct CLIExamplesTests {
    static let commands: [[String]] = [
        ["append"], ["explain"], ["replay"], ["state"], ["report", "regulator"], ["report", "consent-register"],
        ["report", "dossier"], ["serve"], ["watch"], ["subscriptions", "create"],
    ]

    @Test("every command's --help has examples, and none is refused as a usage error", arguments: commands)
    func examplesParse(_ command: [String]) async throws {
        // Wide enough that no example is wrapped (the argument parser reads COLUMNS).
        setenv("COLUMNS", "1000", 1)
        let help = try await CLIRunner.run(command + ["--help"])
        let examples = (help.stdout.components(separatedBy: "EXAMPLES:").dropFirst().first ?? "")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("consent-ledger ") }
        #expect(!examples.isEmpty, "consent-ledger \(command.joined(separator: " ")) --help has no EXAMPLES")
        for example in examples {
            let arguments = example.split(separator: " ").dropFirst().map(String.init)
                + ["--database-url", "postgres://nobody@127.0.0.1:9/none"]
            let run = try await CLIRunner.run(arguments, timeout: 120)
            #expect(!run.stderr.contains("Usage:") && run.status != 64, "\(example) was refused: \(run.stderr)")
            #expect(["cannot connect", "no such file", "cannot open"].contains { run.stderr.contains($0) },
                    "\(example) stopped elsewhere than at the database or a file: \(run.stderr)")
        }
    }
}
