import ArgumentParser
import Foundation
import LedgerCore

/// Where the checkpoint signing key is kept: shared by `signing-key` and `checkpoint`.
struct SigningKeyOptions: ParsableArguments {
    @Option(name: .customLong("key-file"),
            help: ArgumentHelp("The signing key's file (or set CONSENT_LEDGER_SIGNING_KEY; default: signing-key in the data folder).",
                               valueName: "file"))
    var keyFile: String?

    /// The key file: --key-file, CONSENT_LEDGER_SIGNING_KEY, or `signing-key` in the project's
    /// data folder (``DatabaseOptions/dataFolder()``).
    func path(dataFolder: String) -> String {
        keyFile ?? Self.defaultPath(dataFolder: dataFolder)
    }

    /// CONSENT_LEDGER_SIGNING_KEY, or `signing-key` in the data folder.
    static func defaultPath(dataFolder: String) -> String {
        if let path = ProcessInfo.processInfo.environment["CONSENT_LEDGER_SIGNING_KEY"], !path.isEmpty { return path }
        return URL(fileURLWithPath: dataFolder).appendingPathComponent("signing-key").path
    }

    /// Reads the key, refusing a file others can read.
    func load(dataFolder: String) throws -> NoteSigningKey {
        try Self.load(path: path(dataFolder: dataFolder))
    }

    /// Reads the key in `path`, refusing a file others can read and a key of another type than
    /// `type` (a witness's key where the log's is wanted, or the reverse).
    static func load(path: String, type: NoteKeyType = .ed25519) throws -> NoteSigningKey {
        let what = type == .ed25519 ? "signing key" : "witness key"
        guard FileManager.default.fileExists(atPath: path) else {
            throw LedgerError(.invalidKey, "there is no \(what) at \(path)",
                              hint: type == .ed25519 ? "Create one with `consent-ledger signing-key create` (or point --key-file at yours)."
                                  : "Create one with `consent-ledger witness create-key --name NAME --key-file \(path)`.")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
            throw LedgerError(.invalidKey, "the \(what) \(path) can be read by others (mode \(String(mode, radix: 8)))",
                              hint: "Make it private: chmod 600 \(path)")
        }
        let key = try NoteSigningKey(text: try String(contentsOfFile: path, encoding: .utf8))
        try key.verifierKey.require(type, for: "the key file \(path)")
        return key
    }
}
