import ArgumentParser
import Foundation
import LedgerCore

/// `consent-ledger witness cosign INPUT --key-file F --log-key K --state S [--out O]`.
struct WitnessCosign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cosign",
        abstract: "Cosign a ledger's checkpoint if it extends the last one this witness cosigned.",
        discussion: """
            INPUT is what the ledger serves: the first time, its checkpoint (GET /v1/logs/LOG/checkpoint), which \
            is trusted as the start; after that, a consistency proof from the size in --state \
            (GET /v1/logs/LOG/proofs/consistency?from=SIZE). The witness checks the ledger's signature and that \
            the new checkpoint extends the one in --state, then prints the checkpoint with its cosignature \
            (C2SP tlog-cosignature) added, writes it to --out when given, and keeps it in --state for next \
            time. Send the output to the ledger: POST /v1/logs/LOG/checkpoint/cosignatures. It refuses, \
            changing nothing, a checkpoint older than --state's, of another log, or one that does not extend \
            it: a fork, which is what a witness exists to catch.
            """)

    @Argument(help: ArgumentHelp("A signed checkpoint note or a consistency proof bundle (a file, or - for standard input).",
                                 valueName: "input"))
    var input: String

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The witness's private key file (witness create-key).", valueName: "file"))
    var keyFile: String

    @Option(name: .customLong("log-key"),
            help: ArgumentHelp("The ledger's public key: NAME+KEYID+BASE64, or a file holding it.", valueName: "key"))
    var logKey: String

    @Option(help: ArgumentHelp("This witness's state for this log: the checkpoint it cosigned last (created on first use). "
                               + "Keep one per log.", valueName: "file"))
    var state: String

    @Option(help: ArgumentHelp("Also write the cosigned checkpoint to this file.", valueName: "file"))
    var out: String?

    func run() async throws {
        let witness = try CheckpointWitness(key: try SigningKeyOptions.load(path: keyFile, type: .cosignatureV1),
                                            logKey: try VerifierKeyArgument.load(logKey, option: "--log-key", type: .ed25519))
        let last = FileManager.default.fileExists(atPath: state)
            ? String(decoding: try VerifierKeyArgument.read(state, what: "the witness's state"), as: UTF8.self) : nil
        let bytes = try VerifierKeyArgument.read(input, what: "the checkpoint or proof")
        let cosigned = try witness.cosign(bytes, last: last, time: UInt64(Date().timeIntervalSince1970))
        // The state moves only after the cosignature exists, and atomically (rename).
        try Data(cosigned.note.utf8).write(to: URL(fileURLWithPath: state), options: .atomic)
        if let out { try Data(cosigned.note.utf8).write(to: URL(fileURLWithPath: out)) }
        Console.note(cosigned.statement)
        try Console.outRaw(Array(cosigned.note.utf8))
    }
}
