import Foundation
import LedgerApplication
import LedgerCore
import Testing

/// docs/subscriptions.md's signature checks (Swift, Python, the OpenSSL line) run on a real delivery.
@Suite("The webhook signature checks of docs/subscriptions.md")
struct WebhookDocsTests {
    /// The fenced blocks of docs/subscriptions.md in `language`.
    static func blocks(_ language: String) throws -> [String] {
        let text = try String(contentsOf: try JSONSchemaValidator.packageRoot().appendingPathComponent("docs/subscriptions.md"), encoding: .utf8)
        return MarkdownExample.blocks(in: text, document: "docs/subscriptions.md").filter { $0.language == language }.map(\.code)
    }

    /// Runs `executable` with `arguments` in `folder`; its exit status and standard output.
    static func run(_ executable: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:]) async throws -> (Int32, String) {
        try await Task.detached {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }.value
    }

    @Test("the Swift check in the document is the one the tests' receiver runs")
    func swiftIsTheReceivers() throws {
        let swift = try #require(try Self.blocks("swift").first)
        let receiver = try String(contentsOf: try JSONSchemaValidator.packageRoot()
            .appendingPathComponent("Tests/IntegrationTests/Subscriptions/WebhookReceiver.swift"), encoding: .utf8)
        let function = try #require(swift.range(of: "func verifyConsentLedgerSignature").map { String(swift[$0.lowerBound...]) })
        #expect(receiver.contains(function), "docs/subscriptions.md's Swift check differs from WebhookReceiver's")
    }

    @Test("the Python check and the OpenSSL line accept a real delivery, and refuse it changed")
    func pythonAndShell() async throws {
        let python = try #require(try Self.blocks("python").first)
        let shell = try #require(try Self.blocks("bash").first { $0.contains("openssl dgst") })
        try await WebhookDeliveryTests.withSubscription { ledger, receiver, subscription, sender in
            #expect(try await ledger.deliverSubscription(subscription.id, sender: sender, retry: WebhookDeliveryTests.atOnce) == .delivered(7))
            let delivery = try #require(receiver.accepted.first)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-docs-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data(delivery.raw).write(to: folder.appendingPathComponent("body.json"))
            try Data(delivery.raw.dropLast() + Array("x".utf8)).write(to: folder.appendingPathComponent("changed.json"))
            try Data((python + """

                import sys
                print(verify_consent_ledger_signature(sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3]))
                """).utf8).write(to: folder.appendingPathComponent("check.py"))
            let good = try await Self.run("/usr/bin/env", ["python3", "check.py", delivery.signature, "body.json", receiver.secret], in: folder)
            #expect(good.0 == 0 && good.1 == "True\n", "\(good)")
            let changed = try await Self.run("/usr/bin/env", ["python3", "check.py", delivery.signature, "changed.json", receiver.secret], in: folder)
            #expect(changed.0 == 0 && changed.1 == "False\n", "\(changed)")
            let other = try await Self.run("/usr/bin/env", ["python3", "check.py", delivery.signature, "body.json", receiver.secret + "x"], in: folder)
            #expect(other.1 == "False\n", "\(other)")
            // The OpenSSL line prints the v1 of the header.
            let parts = delivery.signature.split(separator: ",")
            let t = try #require(parts.first { $0.hasPrefix("t=") }?.dropFirst(2))
            let v1 = try #require(parts.first { $0.hasPrefix("v1=") }?.dropFirst(3))
            let printed = try await Self.run("/bin/bash", ["-c", shell], in: folder,
                                             environment: ["t": String(t), "CONSENT_LEDGER_WEBHOOK_SECRET": receiver.secret])
            #expect(printed.0 == 0 && printed.1 == v1 + "\n", "\(printed)")
        }
    }
}
