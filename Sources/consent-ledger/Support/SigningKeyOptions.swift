import ArgumentParser
import Foundation
import LedgerCore

/// Where the checkpoint signing key is kept: shared by `signing-key` and `checkpoint`.
struct SigningKeyOptions: ParsableArguments {
    @Option(name: .customLong("key-file"),
            help: ArgumentHelp("The signing key's file (or set CONSENT_LEDGER_SIGNING_KEY; default: signing-key in the data folder).",
                               valueName: "file"))
    var keyFile: String?

    /// The key file: --key-file, CONSENT_LEDGER_SIGNING_KEY, or `signing-key` in the data folder
    /// (--data-dir, CONSENT_LEDGER_HOME or ./.consent-ledger).
    func path(dataDirectory: String?) -> String {
        keyFile ?? Self.defaultPath(dataDirectory: dataDirectory)
    }

    /// CONSENT_LEDGER_SIGNING_KEY, or `signing-key` in the data folder.
    static func defaultPath(dataDirectory: String?) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CONSENT_LEDGER_SIGNING_KEY"], !path.isEmpty { return path }
        let folder = dataDirectory ?? environment["CONSENT_LEDGER_HOME"] ?? ".consent-ledger"
        return URL(fileURLWithPath: folder).appendingPathComponent("signing-key").path
    }

    /// Reads the key, refusing a file others can read.
    func load(dataDirectory: String?) throws -> NoteSigningKey {
        try Self.load(path: path(dataDirectory: dataDirectory))
    }

    /// Reads the key in `path`, refusing a file others can read.
    static func load(path: String) throws -> NoteSigningKey {
        guard FileManager.default.fileExists(atPath: path) else {
            throw LedgerError(.invalidKey, "there is no signing key at \(path)",
                              hint: "Create one with `consent-ledger signing-key create` (or point --key-file at yours).")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw LedgerError(.invalidKey, "the signing key \(path) can be read by others (mode \(String(mode, radix: 8)))",
                              hint: "Make it private: chmod 600 \(path)")
        }
        return try NoteSigningKey(text: try String(contentsOfFile: path, encoding: .utf8))
    }
}
