import ArgumentParser
import Foundation
import LedgerCore

/// `consent-ledger verify-proof BUNDLE --public-key K [--trusted OLDER]`: no database.
struct VerifyProof: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-proof",
        abstract: "Check a proof bundle offline: the checkpoint's signature, the record's hash, its inclusion, consistency.",
        discussion: """
            Needs no database: only the bundle and the ledger's public key (from `signing-key show`, as text \
            or a file). With --trusted, also checks that the bundle's checkpoint extends (or equals) an older \
            checkpoint you already trust. Exit status 0 and a line starting OK when everything checks; 1 and \
            a line starting FAILED: naming the first thing that did not; 2 when the input cannot be used (an \
            unreadable file, not a bundle, a malformed key). tools/verify-proof.py is an independent \
            implementation of the same checks (docs/proofs.md).
            """)

    @Argument(help: ArgumentHelp("The proof bundle (a file, or - for standard input).", valueName: "bundle"))
    var bundle: String

    @Option(name: .customLong("public-key"),
            help: ArgumentHelp("The ledger's public key: NAME+KEYID+BASE64, or a file holding it.", valueName: "key"))
    var publicKey: String

    @Option(help: ArgumentHelp("A file holding an older signed checkpoint you trust.", valueName: "checkpoint"))
    var trusted: String?

    func run() async throws {
        let parsed: ProofBundle
        let key: NoteVerifierKey
        let older: String?
        do {
            let bytes = bundle == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : try Self.read(bundle, what: "the bundle")
            parsed = try ProofBundle(json: bytes)
            let keyText = FileManager.default.fileExists(atPath: publicKey)
                ? String(decoding: try Self.read(publicKey, what: "the public key"), as: UTF8.self) : publicKey
            key = try NoteVerifierKey(text: keyText)
            older = try trusted.map { String(decoding: try Self.read($0, what: "the trusted checkpoint"), as: UTF8.self) }
        } catch {
            Console.note("ERROR: \(error)")
            Foundation.exit(2)
        }
        let summary: String
        do {
            summary = try ProofBundleVerifier.verify(parsed, key: key, trusted: older).summary
        } catch {
            try Console.out("FAILED: \(error.message)")
            Foundation.exit(1)
        }
        try Console.out(summary)
    }

    private static func read(_ path: String, what: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LedgerError(.invalidRequest, "cannot read \(what) at \(path)", hint: "Check the path.")
        }
        return Array(data)
    }
}
