import ArgumentParser
import Foundation
import LedgerCore

/// `consent-ledger signing-key create`.
struct SigningKeyCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create the checkpoint signing key (refuses to replace one).",
        discussion: """
            Writes PRIVATE+KEY+NAME+KEYID+BASE64 to the key file with mode 0600 and prints the public \
            (verifier) key NAME+KEYID+BASE64 on standard output. The name becomes the first part of every \
            checkpoint's origin (NAME/LOG): choose one that says whose ledger this is, such as a domain.
            """)

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var key: SigningKeyOptions

    @Option(help: ArgumentHelp("The key's name: 1 to 100 characters, no white space or '+'.", valueName: "name"))
    var name = "consent-ledger.local"

    func validate() throws {
        do { try NoteKeyID.checkName(name) } catch { throw ValidationError(error.message) }
    }

    func run() async throws {
        let path = key.path(dataDirectory: database.dataDirectory)
        guard !FileManager.default.fileExists(atPath: path) else {
            throw LedgerError(.invalidKey, "a signing key already exists at \(path); it is not replaced",
                              hint: "Checkpoints already signed with it stay valid only under it. Use `signing-key show` to see it, "
                                  + "or --key-file for a second key.")
        }
        let signing = try NoteSigningKey(generatingWithName: name)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Created with mode 0600 before the secret is written, so it is never readable by others.
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw LedgerError(.invalidKey, "could not create \(path)", hint: "Check that the folder is writable.")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data((signing.text + "\n").utf8))
        try handle.close()
        Console.note("created the signing key \(path) (keep it private; back it up)")
        print(signing.verifierKey.text)
    }
}
