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
        let path = key.path(dataFolder: database.dataFolder())
        guard !FileManager.default.fileExists(atPath: path) else {
            throw LedgerError(.invalidKey, "a signing key already exists at \(path); it is not replaced",
                              hint: "Checkpoints already signed with it stay valid only under it. Use `signing-key show` to see it, "
                                  + "or --key-file for a second key.")
        }
        let signing = try NoteSigningKey(generatingWithName: name)
        try Self.write(signing, to: path)
        Console.note("created the signing key \(path) (keep it private; back it up)")
        try Console.out(signing.verifierKey.text)
    }

    /// Writes a new key file that only its owner can read (mode 0600 from its creation, before the
    /// secret is written); refuses to replace a file.
    static func write(_ key: NoteSigningKey, to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError(.invalidKey, "could not create \(path): \(String(cString: strerror(errno)))",
                              hint: "Check that the folder is writable and that no key file is there already.")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data((key.text + "\n").utf8))
        try handle.close()
    }
}
