import Foundation
import LedgerCore

/// Reads a verifier key given on the command line either as its text (NAME+KEYID+BASE64) or as
/// the path of a file holding it: `verify-proof --public-key/--witness`, `serve --witness`,
/// `witness cosign --log-key`.
enum VerifierKeyArgument {
    /// The key `argument` names; ``LedgerError/Code/invalidKey`` (naming `option`) when it is
    /// neither a readable file nor a key, or not of `type`.
    static func load(_ argument: String, option: String, type: NoteKeyType) throws(LedgerError) -> NoteVerifierKey {
        var text = argument
        if FileManager.default.fileExists(atPath: argument) {
            guard let data = FileManager.default.contents(atPath: argument) else {
                throw LedgerError(.invalidKey, "\(option) \(argument): cannot read the file", hint: "Check its permissions.")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        let key: NoteVerifierKey
        do { key = try NoteVerifierKey(text: text) } catch {
            throw LedgerError(.invalidKey, "\(option) \(argument): \(error.message)", hint: error.hint)
        }
        try key.require(type, for: option)
        return key
    }

    /// Reads a whole file (or standard input for `-`), naming `what` when it cannot be read.
    static func read(_ path: String, what: String) throws(LedgerError) -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LedgerError(.invalidRequest, "cannot read \(what) at \(path)", hint: "Check the path.")
        }
        return Array(data)
    }
}
