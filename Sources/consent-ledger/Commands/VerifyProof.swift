import ArgumentParser
import Foundation
import LedgerCore

/// `consent-ledger verify-proof BUNDLE --public-key K [--trusted OLDER] [--witness W]… [--min-witnesses N]`:
/// no database.
struct VerifyProof: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-proof",
        abstract: "Check a proof bundle offline: the checkpoint's signature, its witnesses' cosignatures, the record's hash, its inclusion, consistency.",
        discussion: """
            Needs no database: only the bundle and the ledger's public key (from `signing-key show`, as text \
            or a file). With --trusted, also checks that the bundle's checkpoint extends (or equals) an older \
            checkpoint you already trust. With --witness (repeatable), also requires that the checkpoint is \
            cosigned by those witnesses (C2SP tlog-cosignature): all of them, or --min-witnesses of them. \
            Exit status 0 and a line starting OK when everything checks; 1 and a line starting FAILED: naming \
            the first thing that did not; 2 when the input cannot be used (an unreadable file, not a bundle, a \
            malformed key). tools/verify-proof.py is an independent implementation of the same checks \
            (docs/proofs.md).
            """)

    @Argument(help: ArgumentHelp("The proof bundle (a file, or - for standard input).", valueName: "bundle"))
    var bundle: String

    @Option(name: .customLong("public-key"),
            help: ArgumentHelp("The ledger's public key: NAME+KEYID+BASE64, or a file holding it.", valueName: "key"))
    var publicKey: String

    @Option(help: ArgumentHelp("A file holding an older signed checkpoint you trust.", valueName: "checkpoint"))
    var trusted: String?

    @Option(name: .customLong("witness"),
            help: ArgumentHelp("A witness whose cosignature the checkpoint must carry: its public key NAME+KEYID+BASE64 "
                               + "(type 0x04), or a file holding it. Repeatable.", valueName: "key"))
    var witnesses: [String] = []

    @Option(name: .customLong("min-witnesses"),
            help: ArgumentHelp("How many of the --witness keys must have cosigned (default: all of them).", valueName: "n"))
    var minWitnesses: Int?

    func run() async throws {
        let parsed: ProofBundle
        let key: NoteVerifierKey
        let older: String?
        let policy: WitnessPolicy
        do {
            parsed = try ProofBundle(json: try VerifierKeyArgument.read(bundle, what: "the bundle"))
            key = try VerifierKeyArgument.load(publicKey, option: "--public-key", type: .ed25519)
            older = try trusted.map { (path: String) throws(LedgerError) in
                String(decoding: try VerifierKeyArgument.read(path, what: "the trusted checkpoint"), as: UTF8.self)
            }
            var keys: [NoteVerifierKey] = []
            for witness in witnesses { keys.append(try VerifierKeyArgument.load(witness, option: "--witness", type: .cosignatureV1)) }
            if minWitnesses != nil, keys.isEmpty {
                throw LedgerError(.invalidKey, "--min-witnesses needs the witnesses' keys", hint: "Give each with --witness NAME+KEYID+BASE64.")
            }
            policy = try WitnessPolicy(witnesses: keys, minimum: minWitnesses)
        } catch {
            Console.note("ERROR: \(error)")
            Foundation.exit(2)
        }
        let summary: String
        do {
            summary = try ProofBundleVerifier.verify(parsed, key: key, trusted: older, witnesses: policy).summary
        } catch {
            try Console.out("FAILED: \(error.message)")
            Foundation.exit(1)
        }
        try Console.out(summary)
    }
}
