import ArgumentParser
import Foundation
import LedgerCore

/// `consent-ledger witness create-key --name N --key-file F`.
struct WitnessCreateKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-key",
        abstract: "Create a witness's cosignature key (refuses to replace one).",
        discussion: """
            Writes PRIVATE+KEY+NAME+KEYID+BASE64 (type 0x04, C2SP tlog-cosignature) to --key-file with mode 0600 \
            and prints the public key NAME+KEYID+BASE64 on standard output: give it to the ledger's operator \
            (serve --witness) and to everyone who verifies (verify-proof --witness). Name it after who runs it, \
            such as witness.auditor.example.
            """)

    @Option(help: ArgumentHelp("The witness's name: 1 to 100 characters, no white space or '+'.", valueName: "name"))
    var name: String

    @Option(name: .customLong("key-file"), help: ArgumentHelp("Where to write the private key.", valueName: "file"))
    var keyFile: String

    func validate() throws {
        do { try NoteKeyID.checkName(name) } catch { throw ValidationError(error.message) }
    }

    func run() async throws {
        guard !FileManager.default.fileExists(atPath: keyFile) else {
            throw LedgerError(.invalidKey, "a key already exists at \(keyFile); it is not replaced",
                              hint: "Use `witness show-key --key-file \(keyFile)` to see it, or choose another file.")
        }
        let key = try NoteSigningKey(generatingWithName: name, type: .cosignatureV1)
        try SigningKeyCreate.write(key, to: keyFile)
        Console.note("created the witness key \(keyFile) (keep it private; back it up)")
        try Console.out(key.verifierKey.text)
    }
}

/// `consent-ledger witness show-key --key-file F`.
struct WitnessShowKey: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-key",
        abstract: "Print a witness's public key, which the ledger and verifiers are given.")

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The witness's private key file.", valueName: "file"))
    var keyFile: String

    func run() async throws {
        let key = try SigningKeyOptions.load(path: keyFile, type: .cosignatureV1)
        try Console.out(key.verifierKey.text)
    }
}
