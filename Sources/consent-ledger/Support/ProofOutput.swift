import Foundation
import LedgerCore

/// Writes a proof bundle as canonical JSON, to a file or standard output.
enum ProofOutput {
    static func write(_ bundle: ProofBundle, to path: String?, quietly: Bool = false) throws {
        let bytes = bundle.bytes
        if let path {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if !quietly { Console.note("wrote the \(bundle.kind.rawValue) proof to \(path)") }
        } else {
            try Console.outRaw(bytes)
        }
    }
}
